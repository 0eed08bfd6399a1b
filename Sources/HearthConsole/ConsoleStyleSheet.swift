/// The console's one style sheet, served as `/console/assets/console.css` (the pages' `Content-Security-Policy` allows
/// styles from the console's own origin only, never inline): light and dark with the system's choice, readable from a
/// phone's width up, a visible focus ring for the keyboard.
enum ConsoleStyleSheet {
    static let path = "/console/assets/console.css"

    static let text = [base, activity, status].joined(separator: "\n")

    static let base = """
        :root { color-scheme: light dark; --bg: #fbfaf8; --fg: #1d1b18; --muted: #6b645c; --line: #ddd6cc; --panel: #ffffff;
          --accent: #b4461b; --accent-fg: #ffffff; --bad: #a11d1d; --good: #1f6b35; --warn: #8a5a00; --focus: #1a5fb4; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #171513; --fg: #ece7e1; --muted: #a79f95; --line: #3a3530; --panel: #201d1a; --accent: #f08a5d;
            --accent-fg: #1a1410; --bad: #ff8b8b; --good: #7fd494; --warn: #f2c36b; --focus: #8ab4f8; }
        }
        * { box-sizing: border-box; }
        html { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
        body { margin: 0; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
          outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 0; background: var(--panel); padding: .5rem 1rem; }
        .skip:focus { left: .5rem; }
        header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1rem;
          border-bottom: 1px solid var(--line); background: var(--panel); }
        header.top .brand { font-weight: 700; color: var(--fg); text-decoration: none; }
        header.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
        header.top nav a[aria-current="page"] { font-weight: 700; text-decoration: none; }
        header.top .who { margin-left: auto; display: flex; align-items: center; gap: .75rem; color: var(--muted); font-size: .9rem; }
        main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.5rem; margin: .5rem 0 1rem; word-break: break-word; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        section.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; }
        .muted { color: var(--muted); }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; }
        th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-weight: 600; }
        td code, dd code { word-break: break-all; }
        p > code { overflow-wrap: anywhere; }
        #event-table td:nth-child(2) code { word-break: normal; }
        #event-table td:last-child { word-break: break-all; }
        dl { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; word-break: break-word; }
        .badge { display: inline-block; font-size: .75rem; padding: .05rem .45rem; border-radius: 999px; border: 1px solid currentColor;
          margin-right: .25rem; white-space: nowrap; }
        .badge.bad { color: var(--bad); } .badge.good { color: var(--good); } .badge.warn { color: var(--warn); }
        .notice { padding: .6rem .9rem; border-radius: 6px; border: 1px solid var(--line); margin: 1rem 0; }
        .notice.error { border-color: var(--bad); color: var(--bad); }
        .notice.done { border-color: var(--good); color: var(--good); }
        form.inline { display: inline; }
        form.stack { display: grid; gap: .6rem; max-width: 32rem; }
        label { font-weight: 600; }
        .field { display: grid; gap: .25rem; }
        .hint { color: var(--muted); font-size: .875rem; font-weight: 400; }
        input[type=text], input[type=email], input[type=password], input[type=search], input[type=number], select, textarea {
          font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: .45rem .6rem;
          width: 100%; }
        input[type=file] { font: inherit; }
        fieldset { border: 1px solid var(--line); border-radius: 6px; display: grid; gap: .6rem; padding: .5rem .9rem .9rem; }
        legend { font-weight: 600; padding: 0 .25rem; }
        .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .6rem; }
        progress { width: 100%; max-width: 32rem; height: 1.25rem; accent-color: var(--accent); }
        textarea { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; min-height: 8rem; }
        button { font: inherit; cursor: pointer; border-radius: 6px; padding: .4rem .9rem; border: 1px solid var(--accent);
          background: var(--accent); color: var(--accent-fg); }
        button.secondary { background: transparent; color: var(--accent); }
        button.danger { background: var(--bad); border-color: var(--bad); color: var(--bg); }
        .search { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
        .search .field { flex: 1 1 16rem; }
        .pager { display: flex; justify-content: space-between; margin-top: 1rem; }
        pre { white-space: pre-wrap; word-break: break-all; background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
          padding: .5rem; max-height: 20rem; overflow: auto; }
        .actions { display: flex; flex-wrap: wrap; gap: 1rem; }
        .actions > form, .actions > details { flex: 1 1 18rem; }
        .sign-in { max-width: 26rem; margin: 3rem auto; }
        h3 { font-size: 1rem; margin: 0 0 .5rem; word-break: break-word; } h4 { font-size: .95rem; margin: .75rem 0 .25rem; }
        fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: .6rem; min-width: 0; }
        .check { display: flex; gap: .5rem; align-items: baseline; } .check label { font-weight: 400; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        .tenant-switcher { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; font-size: .9rem; }
        .tenant-switcher select { width: auto; max-width: 16rem; }
        details.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; }
        details summary { cursor: pointer; color: var(--accent); margin: .25rem 0; }
        section.provider > form { margin-top: .5rem; }
        svg.qr { display: block; width: 14rem; max-width: 100%; height: auto; }
        @media (max-width: 40rem) {
          dl { grid-template-columns: 1fr; } dt { margin-top: .4rem; }
          table.users thead { display: none; }
          table.users tr { display: block; border-bottom: 1px solid var(--line); padding: .4rem 0; }
          table.users td { display: block; border: 0; padding: .1rem 0; }
          table.users td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
        }
        """
}
