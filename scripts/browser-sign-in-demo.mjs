// The browser half of scripts/browser-sign-in-demo.sh: talks to Chromium over the DevTools protocol (no
// dependencies; Node 20 with --experimental-websocket) and to Hearth over HTTP.
//   node --experimental-websocket browser-sign-in-demo.mjs <hearth base URL> <devtools port> <screenshot path>
import http from "node:http";
import { writeFileSync } from "node:fs";

const [hearth, devtoolsPort, screenshotPath] = process.argv.slice(2);
const apiKey = "demo-key";

function fail(message) {
    console.error(`FAIL: ${message}`);
    process.exit(1);
}

async function api(method, body) {
    const response = await fetch(`${hearth}/v1/accounts:${method}?key=${apiKey}`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
}

/// A loopback "app": the return URL a desktop app would listen on; resolves with the first URL it receives.
function loopbackApp() {
    let resolve;
    const received = new Promise((r) => (resolve = r));
    const server = http.createServer((request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<p>Signed in. You can close this window.</p>");
        resolve(new URL(request.url, `http://${request.headers.host}`));
    });
    return new Promise((ready) => server.listen(0, "127.0.0.1", () => ready({ server, received, port: server.address().port })));
}

/// One DevTools page session.
async function openPage() {
    const created = await (await fetch(`http://127.0.0.1:${devtoolsPort}/json/new?about:blank`, { method: "PUT" })).json();
    const socket = new WebSocket(created.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
    let nextID = 1;
    const pending = new Map();
    const listeners = [];
    socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.id && pending.has(message.id)) {
            const { resolve, reject } = pending.get(message.id);
            pending.delete(message.id);
            message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result);
        } else if (message.method) {
            for (const listener of listeners) listener(message);
        }
    };
    const send = (method, params = {}) => new Promise((resolve, reject) => {
        const id = nextID++;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
    });
    const waitFor = (method) => new Promise((resolve) => {
        const listener = (message) => {
            if (message.method === method) { listeners.splice(listeners.indexOf(listener), 1); resolve(message.params); }
        };
        listeners.push(listener);
    });
    await send("Page.enable");
    await send("Runtime.enable");
    return {
        send,
        async navigate(url) { const loaded = waitFor("Page.loadEventFired"); await send("Page.navigate", { url }); await loaded; },
        async evaluate(expression) { return (await send("Runtime.evaluate", { expression, returnByValue: true })).result.value; },
        close() { socket.close(); },
    };
}

async function flow({ providerId, decision, screenshot }) {
    const app = await loopbackApp();
    const returnURL = `http://127.0.0.1:${app.port}/done`;
    const started = await api("createAuthUri", { providerId, continueUri: returnURL });
    if (started.status !== 200) fail(`createAuthUri ${providerId}: ${JSON.stringify(started.json)}`);
    const { authUri, sessionId } = started.json;
    const page = await openPage();
    await page.navigate(authUri);
    const title = await page.evaluate("document.querySelector('h1')?.textContent");
    const accounts = await page.evaluate("[...document.querySelectorAll('input[name=sandbox_subject]')].length");
    console.log(`${providerId}: consent page "${title}" offers ${accounts} account(s)`);
    if (!accounts) fail(`${providerId}: the consent page lists no account`);
    if (screenshot) {
        const { data } = await page.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
        writeFileSync(screenshot, Buffer.from(data, "base64"));
        console.log(`${providerId}: screenshot of the consent page saved to ${screenshot}`);
    }
    // A person's click.
    await page.evaluate(`document.querySelector('button[value=${decision}]').click()`);
    const landed = await Promise.race([app.received, new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 15000))])
        .catch(() => fail(`${providerId}: the browser never reached the app's return URL`));
    page.close();
    app.server.close();
    if (decision === "cancel") {
        const error = JSON.parse(landed.searchParams.get("firebaseError") ?? "{}");
        if (error.code !== "auth/web-context-cancelled") fail(`${providerId}: cancel arrived as ${landed}`);
        console.log(`${providerId}: Cancel reached the app as ${error.code}`);
        return;
    }
    const link = landed.searchParams.get("link");
    if (!link) fail(`${providerId}: the app received ${landed}`);
    console.log(`${providerId}: the app received link=${link.replace(/authResult=.*/, "authResult=…")}`);
    const signedIn = await api("signInWithIdp", {
        requestUri: link, sessionId, postBody: `providerId=${providerId}`, returnSecureToken: true, returnIdpCredential: true,
    });
    if (signedIn.status !== 200 || !signedIn.json.idToken) fail(`${providerId}: signInWithIdp ${JSON.stringify(signedIn.json)}`);
    console.log(`${providerId}: signed in as ${signedIn.json.localId} (${signedIn.json.email ?? "no e-mail"}, ${signedIn.json.displayName ?? "no name"}), isNewUser=${signedIn.json.isNewUser ?? false}`);
}

await flow({ providerId: "google.com", decision: "approve", screenshot: screenshotPath });
await flow({ providerId: "apple.com", decision: "approve" });
await flow({ providerId: "twitter.com", decision: "cancel" });
console.log("OK: browser sign-in works in headless Chromium");
process.exit(0);
