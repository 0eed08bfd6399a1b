extension ConsoleStyleSheet {
    /// The status page's look (`body.status`), kept from when it carried its own inline styles: light and dark cards that
    /// fold to one column on a phone, and its requests chart's colours.
    static let status = """
        body.status{color-scheme:light dark;--bg:#f4f4f2;--card:#fff;--text:#1f1f1f;--muted:#4d4d4d;--accent:#1a56db;--line:#d9d9d6;\
        --good:#146c2e;--warn:#8a5300;--bad:#a1160a;--ok-bar:#4f7fd9;--client-bar:#d98e04;--server-bar:#c5221f}
        @media (prefers-color-scheme:dark){body.status{--bg:#121212;--card:#1e1e1e;--text:#ececec;--muted:#c4c4c4;--accent:#8ab4f8;\
        --line:#3a3a3a;--good:#81c995;--warn:#fdd663;--bad:#f28b82;--ok-bar:#8ab4f8;--client-bar:#fdd663;--server-bar:#f28b82}}
        body.status *{box-sizing:border-box}
        body.status{margin:0;padding:1.5rem 1rem;background:var(--bg);color:var(--text);\
        font:0.95rem/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
        body.status header,body.status main{max-width:64rem;margin:0 auto}
        body.status h1{margin:0 0 .25rem;font-size:1.5rem}
        body.status h2{margin:0 0 .75rem;font-size:1.05rem}
        body.status main{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(22rem,100%),1fr));gap:1rem;margin-top:1rem}
        body.status section{background:var(--card);border-radius:10px;padding:1rem 1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);\
        min-width:0}
        body.status section{overflow-x:auto}
        body.status figcaption{flex-wrap:wrap}
        body.status #keys,body.status #requests,body.status #errors{grid-column:1/-1}
        body.status .muted{color:var(--muted);margin:0}
        body.status dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
        body.status dt{color:var(--muted)}
        body.status dd{margin:0;overflow-wrap:anywhere}
        body.status table{width:100%;border-collapse:collapse;margin:.5rem 0 0}
        body.status caption{text-align:left;color:var(--muted);padding:0 0 .25rem}
        body.status th,body.status td{text-align:left;padding:.3rem .5rem .3rem 0;border-bottom:1px solid var(--line);vertical-align:top}
        body.status th{font-weight:600;color:var(--muted)}
        body.status code{font:0.85rem/1.4 ui-monospace,"SF Mono",Menlo,Consolas,monospace;overflow-wrap:anywhere}
        body.status .badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-weight:600;font-size:.8rem;\
        border:1px solid currentColor}
        body.status .badge.development{color:var(--warn)}
        body.status .badge.production{color:var(--good)}
        body.status .nowrap,body.status time,body.status .good,body.status .warn,body.status .bad{white-space:nowrap}
        body.status .good{color:var(--good);font-weight:600}
        body.status .warn{color:var(--warn);font-weight:600}
        body.status .bad{color:var(--bad);font-weight:600}
        body.status figure{margin:1rem 0 0}
        body.status svg{display:block;border-bottom:1px solid var(--line)}
        body.status svg .ok{fill:var(--ok-bar)}
        body.status svg .client{fill:var(--client-bar)}
        body.status svg .server{fill:var(--server-bar)}
        body.status svg .axis{stroke:var(--line)}
        body.status figcaption{display:flex;justify-content:space-between;gap:1rem;color:var(--muted);font-size:.8rem;margin-top:.25rem}
        body.status figcaption i{display:inline-block;width:.7rem;height:.7rem;border-radius:2px;margin:0 .2rem 0 .5rem;\
        vertical-align:-1px}
        body.status i.ok{background:var(--ok-bar)}
        body.status i.client{background:var(--client-bar)}
        body.status i.server{background:var(--server-bar)}
        """
}
