/** The dashboard's style sheet and icon (see page.ts for why they are strings). */
export const DASHBOARD_CSS = `
:root { color-scheme: light; --fg: #1d2330; --muted: #667085; --line: #e3e6ec; --bg: #f6f7f9; --ok: #17803d;
  --warn: #b54708; --bad: #c01f2f; --accent: #2454c5; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; padding: 10px 20px; background: #fff;
  border-bottom: 1px solid var(--line); position: sticky; top: 0; }
h1 { font-size: 17px; margin: 0; }
h2 { font-size: 14px; margin: 0 0 8px; }
h2 small, h3 small { font-weight: normal; color: var(--muted); }
h3 { font-size: 13px; margin: 0 0 6px; display: flex; flex-wrap: wrap; gap: 2px 12px; align-items: baseline; }
/* minmax(0, …): a panel is as wide as its column, not as its widest table (which scrolls inside it instead). */
main { padding: 14px 20px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; }
.columns { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 14px; }
.stack { display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; align-content: start; }
.status { color: var(--muted); }
.status.down { color: var(--bad); font-weight: 600; }
.account { margin-bottom: 12px; }
.account:last-child { margin-bottom: 0; }
.total { margin-left: auto; font-weight: 600; }
/* A table wider than its panel scrolls inside it, never the page (a phone's screen, a narrow window). */
.table-box { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid var(--line); vertical-align: top;
  white-space: nowrap; }
th { color: var(--muted); font-weight: 500; font-size: 12px; }
td.num, th.num { text-align: right; padding-right: 12px; }
td.wrap { white-space: normal; word-break: break-all; }
tr.inactive td { color: var(--muted); }
.empty { color: var(--muted); margin: 0; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; font-weight: 600;
  background: #eef0f4; color: var(--muted); }
.badge.ok { background: #e3f5e9; color: var(--ok); }
.badge.warn { background: #fdf0e3; color: var(--warn); }
.badge.bad { background: #fce8ea; color: var(--bad); }
.bar { display: inline-block; width: 70px; height: 7px; background: #eef0f4; border-radius: 4px; margin-right: 6px;
  vertical-align: middle; overflow: hidden; }
.bar span { display: block; height: 100%; background: var(--accent); }
.filters { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 8px; }
.filters label { color: var(--muted); }
.filters input, .filters select { font: inherit; margin-left: 4px; }
.filters input { width: 130px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
/* A phone, or a window too narrow for two columns: one column of panels, each as wide as the screen; a row stays
   one line (its wrapping cells would otherwise be squeezed to a word a line), and its table scrolls sideways. */
@media (max-width: 760px) {
  header { padding: 8px 12px; }
  main { padding: 10px 8px; gap: 10px; }
  section { padding: 10px; }
  .columns { grid-template-columns: minmax(0, 1fr); gap: 10px; }
  .stack { gap: 10px; }
  td.wrap { white-space: nowrap; word-break: normal; }
  .total { margin-left: 0; }
}
`;

/** Its own icon, so that the browser does not ask for /favicon.ico, a 404 the request log would show. */
export const DASHBOARD_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2454c5"/><path d="M4 4h8v2H4zm0 3h8v2H4zm0 3h5v2H4z" fill="#fff"/></svg>`;
