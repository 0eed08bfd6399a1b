#!/usr/bin/python3
"""A mail server for Hearth's tests: accepts mail on loopback and writes every message to a directory.

Runs on Debian's python3-aiosmtpd (apt-get install python3-aiosmtpd), so start it with /usr/bin/python3.
Each accepted message becomes <n>.eml (the bytes received, dot-unstuffed) and <n>.json: the envelope,
whether the session was TLS and authenticated, and the message as Python's e-mail package reads it
(headers with RFC 2047 decoded, the text and HTML parts with their transfer encoding undone). The
.json is written last (renamed into place), so a reader that sees it sees the whole message.

    smtp-sink.py --port 0 --maildir DIR [--starttls CERT KEY | --implicit-tls CERT KEY]
                 [--auth USER PASS [--auth-mechanisms "PLAIN LOGIN"]] [--reject-first N]

Prints "ready <host> <port>" once it listens (port 0 picks a free one). Ends on SIGTERM or SIGINT, and by
itself when its parent process goes away.
"""

import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import ssl
import sys

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError as error:
    print(f"smtp-sink: cannot import aiosmtpd ({error}); install python3-aiosmtpd and run /usr/bin/python3",
          file=sys.stderr, flush=True)
    sys.exit(3)


class Sink:
    """The handler: answers 451 to the first --reject-first messages, then stores each one."""

    def __init__(self, maildir, reject_first, implicit_tls):
        self.maildir = maildir
        self.reject_left = reject_first
        self.implicit_tls = implicit_tls
        # Numbering continues across restarts on the same directory.
        self.count = sum(1 for name in os.listdir(maildir) if name.endswith(".json"))

    async def handle_DATA(self, server, session, envelope):
        if self.reject_left > 0:
            self.reject_left -= 1
            return "451 4.3.0 Try again later (smtp-sink --reject-first)"
        self.count += 1
        number = self.count
        raw = envelope.original_content
        with open(os.path.join(self.maildir, f"{number}.eml"), "wb") as file:
            file.write(raw)
        record = {
            "number": number,
            "mailFrom": envelope.mail_from,
            "rcptTos": list(envelope.rcpt_tos),
            "tls": self.implicit_tls or session.ssl is not None,
            "authenticated": bool(session.authenticated),
            "authenticatedUser": login_name(session),
        }
        record.update(parse(raw))
        temporary = os.path.join(self.maildir, f".{number}.json.tmp")
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(record, file, ensure_ascii=False)
        os.rename(temporary, os.path.join(self.maildir, f"{number}.json"))
        return "250 2.0.0 OK: stored"


def login_name(session):
    login = getattr(session.auth_data, "login", None)
    if isinstance(login, bytes):
        return login.decode("utf-8", "replace")
    return login


def parse(raw):
    """Headers and text/HTML parts, decoded by the standard library (independent of Hearth's encoder)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    headers = [[name, str(value)] for name, value in message.items()]
    parts = {"textBody": None, "htmlBody": None}
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        key = {"text/plain": "textBody", "text/html": "htmlBody"}.get(kind)
        if key is not None and parts[key] is None:
            parts[key] = part.get_content()
    return {
        "headers": headers,
        "contentType": message.get_content_type(),
        "defects": [type(defect).__name__ for part in message.walk() for defect in part.defects],
        **parts,
    }


def tls_context(cert, key):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def main():
    parser = argparse.ArgumentParser(description="A mail sink for Hearth's tests.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--maildir", required=True)
    security = parser.add_mutually_exclusive_group()
    security.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"), help="offer and require STARTTLS")
    security.add_argument("--implicit-tls", nargs=2, metavar=("CERT", "KEY"), help="TLS from the first byte")
    parser.add_argument("--auth", nargs=2, metavar=("USER", "PASS"), help="require AUTH with these credentials")
    parser.add_argument("--auth-mechanisms", default="PLAIN LOGIN", help="the AUTH mechanisms offered")
    parser.add_argument("--reject-first", type=int, default=0, metavar="N", help="answer 451 to the first N messages")
    arguments = parser.parse_args()

    os.makedirs(arguments.maildir, exist_ok=True)
    handler = Sink(arguments.maildir, arguments.reject_first, arguments.implicit_tls is not None)

    def authenticator(server, session, envelope, mechanism, auth_data):
        if (isinstance(auth_data, LoginPassword)
                and arguments.auth is not None
                and auth_data.login == arguments.auth[0].encode()
                and auth_data.password == arguments.auth[1].encode()):
            return AuthResult(success=True, auth_data=auth_data)
        return AuthResult(success=False, handled=False)

    # Without --auth, no AUTH mechanism is offered (aiosmtpd would offer PLAIN and LOGIN and refuse everyone).
    offered = set(arguments.auth_mechanisms.upper().split()) if arguments.auth is not None else set()
    excluded = [name for name in ("PLAIN", "LOGIN") if name not in offered]
    starttls = tls_context(*arguments.starttls) if arguments.starttls else None
    implicit = tls_context(*arguments.implicit_tls) if arguments.implicit_tls else None

    def factory():
        return SMTP(
            handler,
            hostname="smtp-sink.test",
            tls_context=starttls,
            require_starttls=starttls is not None,
            auth_required=arguments.auth is not None,
            # The tests also send credentials over plain connections to loopback.
            auth_require_tls=False,
            auth_exclude_mechanism=excluded,
            authenticator=authenticator,
            timeout=60,
        )

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(factory, host=arguments.host, port=arguments.port, ssl=implicit, reuse_address=True))
    port = server.sockets[0].getsockname()[1]
    stop = asyncio.Event()
    # A parent may spawn us with these signals blocked (its threads' mask is inherited).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    parent = os.getppid()

    async def watch_parent():
        while not stop.is_set():
            if os.getppid() != parent:
                stop.set()
            await asyncio.sleep(1)

    print(f"ready {arguments.host} {port}", flush=True)
    loop.create_task(watch_parent())
    loop.run_until_complete(stop.wait())
    server.close()


if __name__ == "__main__":
    import logging
    import warnings
    # aiosmtpd warns about AUTH without TLS, which the tests want.
    warnings.simplefilter("ignore")
    logging.getLogger("mail.log").setLevel(logging.ERROR)
    main()
