// Figures for people: medians with their spread, since one run on a shared 2-core machine says little.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** { median, min, max } of a list of numbers. */
export function spread(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** "12,345 (11,900–12,800)": the median with the min–max beside it. */
export function formatSpread({ median: mid, min, max }, format) {
  return min === max ? format(mid) : `${format(mid)} (${format(min)}–${format(max)})`;
}

export const formatRps = (value) => Math.round(value).toLocaleString('en-US');
export const formatMs = (value) =>
  !Number.isFinite(value) ? 'n/a' : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
export const formatRatio = (value) => value.toFixed(2);
export const formatMiB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const formatKiB = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

export const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

/** A plain text table: columns padded to their widest cell, numbers right-aligned. */
export function table(header, rows) {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const numeric = header.map((_, column) => rows.every((row) => /^[\d.,]/.test(String(row[column])) || row[column] === ''));
  const line = (row) =>
    row
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(all[0]), widths.map((width) => '-'.repeat(width)).join('  '), ...all.slice(1).map(line)].join('\n');
}
