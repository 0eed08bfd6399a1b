extension ConsoleStyleSheet {
    /// The activity page's charts and filters (the series' colours, light and dark; the bars' frame; the legend) the
    /// providers' icons; the templates' previews.
    static let activity = """
        :root { --series-0: #1a5fb4; --series-1: #c64600; --series-2: #2b8a3e; --series-3: #8e3fb0; --series-4: #a2790d;
          --series-5: #5e5c64; }
        @media (prefers-color-scheme: dark) {
          :root { --series-0: #8ab4f8; --series-1: #f7a26b; --series-2: #7fd494; --series-3: #d7a4f0; --series-4: #f2c36b;
            --series-5: #c0bfbc; }
        }
        .series-0 { fill: var(--series-0); } .series-1 { fill: var(--series-1); } .series-2 { fill: var(--series-2); }
        .series-3 { fill: var(--series-3); } .series-4 { fill: var(--series-4); } .series-5 { fill: var(--series-5); }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 0 1rem; }
        .chart svg.bars { display: block; width: 100%; height: 8rem; border-bottom: 1px solid var(--line); }
        .chart .axis { display: flex; justify-content: space-between; flex-wrap: wrap; gap: .5rem; font-size: .8rem; margin: .25rem 0; }
        .legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: 0 0 .5rem; font-size: .9rem; }
        .legend li { display: flex; align-items: center; gap: .35rem; }
        .numbers td, .numbers th { text-align: right; } .numbers th:first-child { text-align: left; }
        input[type=date] { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
          padding: .4rem .6rem; width: 100%; }
        .search .field.narrow { flex: 1 1 10rem; }
        input[type=date]:focus-within { outline: 3px solid var(--focus); outline-offset: 2px; }
        header.top nav ul { flex-wrap: wrap; gap: .25rem 1rem; }
        header.top .who { flex-wrap: wrap; }
        .provider { display: inline-flex; align-items: center; gap: .3rem; }
        .provider-icon { flex: none; }
        iframe.mail { display: block; width: 100%; height: 28rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
        form.stack.wide { max-width: none; }
        .sms-texts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(16rem, 100%), 1fr)); gap: 0 1rem; }
        .sms-texts h3 { margin: 0 0 .5rem; font-size: 1rem; }
        """
}
