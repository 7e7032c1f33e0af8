/** Hand a text to the browser as a file download; no server round trip, nothing kept afterwards. */
export function downloadText(fileName: string, text: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the click has started the download synchronously; the URL is not needed after this task
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
