/**
 * The dashboard's HTML: the sections' frames, which script.ts fills in. Served as a string from the package, not
 * a file, so that it rides in the plugin's bundle and executable with the rest of the emulator (provider/native/
 * parts.ts); it loads only its own script and style, from the emulator itself (CSP in routes.ts).
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>RimuHosting emulator</title>
    <link rel="icon" href="/__emulator/favicon.svg" />
    <link rel="stylesheet" href="/__emulator/dashboard.css" />
    <script src="/__emulator/dashboard.js" defer></script>
  </head>
  <body>
    <header>
      <h1>RimuHosting emulator</h1>
      <span id="emulator-date" class="status"></span>
      <span id="status" class="status">Loading…</span>
    </header>
    <main>
      <section id="accounts">
        <h2>Accounts and their orders</h2>
        <div id="account-list"></div>
      </section>
      <div class="columns">
        <div class="stack">
          <section id="faults">
            <h2>Faults armed</h2>
            <div id="fault-list"></div>
          </section>
          <section id="chaos">
            <h2>Chaos rules <small id="chaos-seed"></small></h2>
            <div id="chaos-list"></div>
          </section>
        </div>
        <section id="hosts">
          <h2>Hosts' room</h2>
          <div id="host-list"></div>
        </section>
      </div>
      <section id="requests">
        <h2>Last requests <small id="request-count"></small></h2>
        <form id="request-filters" class="filters">
          <label>Method <select name="method"><option value="">any</option><option>GET</option><option>POST</option><option>PUT</option><option>DELETE</option></select></label>
          <label>Route <input name="route" type="search" placeholder="e.g. createVps" /></label>
          <label>Status <select name="status"><option value="">any</option><option value="2">2xx</option><option value="4">4xx</option><option value="5">5xx</option><option value="0">no answer</option></select></label>
          <label>Account <select name="account"><option value="">any</option></select></label>
          <label>User agent <input name="userAgent" type="search" placeholder="e.g. got" /></label>
        </form>
        <div id="request-list"></div>
      </section>
    </main>
  </body>
</html>
`;
