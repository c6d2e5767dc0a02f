#!/usr/bin/env python3
"""moto's S3 on loopback, checking every request's signature, for the S3 example.

    python3 Examples/s3_server.py [port]     (port 0, the default, lets the OS choose)

Prints one line once it listens, then serves until stopped:

    http://127.0.0.1:PORT ACCESS_KEY_ID SECRET_ACCESS_KEY

moto (pinned in Examples/s3-requirements.txt) implements S3; by itself it accepts any request.
Here it checks signatures: at start-up an IAM user with an access key allowed `s3:*` is made,
then every request signed in its `Authorization` field has its AWS Signature Version 4 checked
by moto (a wrong signature is a 403 `SignatureDoesNotMatch`). moto does not check pre-signed
URLs (query-string signatures) and fails them once checking is on, so this file checks them
itself, with its own SigV4 code below (independent of the Swift signer it tests), then lets moto
answer the request. Requests with neither are answered by moto as an anonymous caller.

Like S3 (and unlike moto), it also checks that a body's SHA-256 is the `x-amz-content-sha256`
the request signed: a mismatch is a 400 `XAmzContentSHA256Mismatch`.

One fault is added for the example's retry step: the first two GETs of a key ending in
`slow-down-twice` are answered `503 SlowDown`, as S3 answers a client it throttles.
"""

import datetime
import hashlib
import hmac
import io
import os
import sys
import urllib.parse

# Read by moto when it is imported: check signatures from the first request on.
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"

from moto import settings  # noqa: E402
from moto.moto_server.werkzeug_app import (  # noqa: E402
    DomainDispatcherApplication,
    create_backend_app,
)
from moto.server import MotoRequestHandler  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402
from werkzeug.test import Client  # noqa: E402

REGION = "us-east-1"
POLICY = (
    '{"Version":"2012-10-17","Statement":'
    '[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}'
)


def unchecked(function):
    """Runs `function` with moto's signature checks off (the set-up and checked pre-signed URLs).

    The server handles one request at a time, so no other request runs meanwhile."""
    saved = settings.INITIAL_NO_AUTH_ACTION_COUNT
    settings.INITIAL_NO_AUTH_ACTION_COUNT = float("inf")
    try:
        return function()
    finally:
        settings.INITIAL_NO_AUTH_ACTION_COUNT = saved


def make_user(app):
    """Makes the IAM user and its access key through moto's own IAM API; returns the key."""
    client = Client(app)
    headers = {
        "Host": "iam.amazonaws.com",
        "Authorization": "AWS4-HMAC-SHA256 Credential=setup/20260101/us-east-1/iam/aws4_request,"
        " SignedHeaders=host, Signature=none",
    }

    def call(**form):
        response = client.post("/", data=dict(form, Version="2010-05-08"), headers=headers)
        if response.status_code != 200:
            sys.exit(f"s3_server: IAM {form['Action']} failed: {response.get_data(as_text=True)}")
        return response.get_data(as_text=True)

    call(Action="CreateUser", UserName="s3-example")
    call(Action="PutUserPolicy", UserName="s3-example", PolicyName="s3", PolicyDocument=POLICY)
    text = call(Action="CreateAccessKey", UserName="s3-example")

    def between(start, end):
        return text.split(start, 1)[1].split(end, 1)[0]

    return between("<AccessKeyId>", "</"), between("<SecretAccessKey>", "</")


def uri_encode(text, keep_slash=False):
    return urllib.parse.quote(text, safe="-_.~/" if keep_slash else "-_.~")


def presigned_error(environ, keys):
    """Why a pre-signed request fails its check, or None when its signature is right."""
    query = urllib.parse.parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
    params = dict(query)
    if params.get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256":
        return "AuthorizationQueryParametersError", "X-Amz-Algorithm must be AWS4-HMAC-SHA256"
    credential = params.get("X-Amz-Credential", "").split("/")
    if len(credential) != 5 or credential[0] != keys[0]:
        return "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist."
    date = params.get("X-Amz-Date", "")
    try:
        signed_at = datetime.datetime.strptime(date, "%Y%m%dT%H%M%SZ").replace(
            tzinfo=datetime.timezone.utc
        )
        expires = int(params.get("X-Amz-Expires", ""))
    except ValueError:
        return "AuthorizationQueryParametersError", "X-Amz-Date or X-Amz-Expires is invalid"
    if datetime.datetime.now(datetime.timezone.utc) > signed_at + datetime.timedelta(
        seconds=expires
    ):
        return "AccessDenied", "Request has expired"
    signed_headers = params.get("X-Amz-SignedHeaders", "").split(";")
    canonical_query = "&".join(
        f"{uri_encode(name)}={uri_encode(value)}"
        for name, value in sorted(query)
        if name != "X-Amz-Signature"
    )
    header_lines = ""
    for name in signed_headers:
        value = environ.get("HTTP_" + name.upper().replace("-", "_"), "")
        header_lines += f"{name}:{' '.join(value.split())}\n"
    raw_path = environ.get("RAW_URI") or environ.get("REQUEST_URI") or environ["PATH_INFO"]
    canonical_request = "\n".join(
        [
            environ["REQUEST_METHOD"],
            raw_path.split("?", 1)[0],
            canonical_query,
            header_lines,
            ";".join(signed_headers),
            "UNSIGNED-PAYLOAD",
        ]
    )
    scope = "/".join(credential[1:])
    string_to_sign = "\n".join(
        [
            "AWS4-HMAC-SHA256",
            date,
            scope,
            hashlib.sha256(canonical_request.encode()).hexdigest(),
        ]
    )
    key = ("AWS4" + keys[1]).encode()
    for part in credential[1:]:
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, string_to_sign.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, params.get("X-Amz-Signature", "")):
        return "SignatureDoesNotMatch", (
            "The request signature we calculated does not match the signature you provided."
        )
    return None


# Keys whose first two GETs are answered `503 SlowDown`, as S3 does under load: the example's
# retry step reads one. Counted per path.
SLOW_DOWN_SUFFIX = "/slow-down-twice"
SLOW_DOWN_ANSWERS = 2


def error_answer(start_response, status, code, message):
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<Error><Code>{code}</Code><Message>{message}</Message></Error>"
    ).encode()
    start_response(
        status, [("Content-Type", "application/xml"), ("Content-Length", str(len(body)))]
    )
    return [body]


def payload_hash_mismatch(environ):
    """S3's check that moto leaves out: the body's SHA-256 is the `x-amz-content-sha256` the
    request signed (unless it signed `UNSIGNED-PAYLOAD`). Returns the error, or None.

    The body is read here and handed on to moto unchanged."""
    claimed = environ.get("HTTP_X_AMZ_CONTENT_SHA256")
    if claimed is None or claimed == "UNSIGNED-PAYLOAD":
        return None
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length > 0 else b""
    environ["wsgi.input"] = io.BytesIO(body)
    if hashlib.sha256(body).hexdigest() == claimed:
        return None
    return (
        "XAmzContentSHA256Mismatch",
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
    )


def with_presigned_check(app, keys):
    slowed = {}

    def checked(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if environ["REQUEST_METHOD"] == "GET" and path.endswith(SLOW_DOWN_SUFFIX):
            slowed[path] = slowed.get(path, 0) + 1
            if slowed[path] <= SLOW_DOWN_ANSWERS:
                return error_answer(
                    start_response, "503 Slow Down", "SlowDown", "Please reduce your request rate."
                )
        mismatch = payload_hash_mismatch(environ)
        if mismatch is not None:
            return error_answer(start_response, "400 Bad Request", *mismatch)
        query = environ.get("QUERY_STRING", "")
        if "X-Amz-Signature=" not in query or "HTTP_AUTHORIZATION" in environ:
            return app(environ, start_response)
        error = presigned_error(environ, keys)
        if error is not None:
            return error_answer(start_response, "403 Forbidden", *error)
        return unchecked(lambda: list(app(environ, start_response)))

    return checked


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    app = DomainDispatcherApplication(create_backend_app)
    keys = unchecked(lambda: make_user(app))
    # One request at a time: `unchecked` changes a process-wide setting.
    server = make_server(
        "127.0.0.1",
        port,
        with_presigned_check(app, keys),
        threaded=False,
        request_handler=MotoRequestHandler,
    )
    print(f"http://127.0.0.1:{server.server_port} {keys[0]} {keys[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
