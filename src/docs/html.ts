// The HTML shell of the docs pages. No inline script or style: the pages' Content-Security-Policy
// allows only the sandbox's own files.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function page(title: string, body: string, head = '<link rel="stylesheet" href="/docs/docs.css">'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
${head}
</head>
<body>
${body}
</body>
</html>
`;
}
