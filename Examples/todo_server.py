#!/usr/bin/env python3
"""The todo API of the Endpoint example, on 127.0.0.1, with the Python standard library only.

    python3 Examples/todo_server.py 8080 &
    swift run EndpointExample --base-url http://127.0.0.1:8080

Port 0 picks a free port. The first line on stdout is always `listening on http://127.0.0.1:PORT`,
so a script can read the address. It answers like the example's in-memory fake backend:

    GET    /todos            200 [todo]
    POST   /todos            201 todo | 422 {"message", "errors": [{"field", "message"}]}
    GET    /todos/ID         200 todo | 404 {"message"}
    PUT    /todos/ID         200 todo | 404 | 422
    DELETE /todos/ID         204      | 404
    GET    /account          200 {"account_name", "plan"} with Basic auth "anystring:<key>",
                             401 {"message"} + WWW-Authenticate otherwise
    GET    /users/LOGIN      200 {"login", "name", "public_repos"} | 404

The API key is the example's demo key unless --api-key is given. Stop the server with Ctrl-C
or by sending it SIGTERM.
"""

import argparse
import base64
import binascii
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

DEMO_API_KEY = "demo-key-0000"

USERS = {"octocat": {"login": "octocat", "name": "The Octocat", "public_repos": 8}}


class TodoStore:
    """The todos, guarded by a lock: the server answers each connection on its own thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.todos = {
            1: {"id": 1, "title": "Buy milk", "completed": False},
            2: {"id": 2, "title": "Read the Endpoint docs", "completed": True},
        }
        self.next_id = 3


def validation_problem(draft):
    """A 422 body when the draft is not a valid todo, else None."""
    errors = []
    title = draft.get("title")
    if not isinstance(title, str) or not title.strip():
        errors.append({"field": "title", "message": "must not be empty"})
    if not isinstance(draft.get("completed", False), bool):
        errors.append({"field": "completed", "message": "must be true or false"})
    if errors:
        return {"message": "Validation failed", "errors": errors}
    return None


def make_handler(store, api_key):
    expected_auth = "Basic " + base64.b64encode(f"anystring:{api_key}".encode()).decode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "todo_server"

        def log_message(self, format, *args):  # noqa: A002 - the base class's name
            # One short line per request on stderr; never headers, so no credentials.
            sys.stderr.write("todo_server: %s\n" % (format % args))

        # Routing

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_PUT(self):
            self.route("PUT")

        def do_DELETE(self):
            self.route("DELETE")

        def route(self, method):
            body = self.read_body()
            if body is None:
                return
            segments = [unquote(s) for s in urlsplit(self.path).path.split("/") if s]
            if segments == ["todos"]:
                if method == "GET":
                    return self.list_todos(parse_qs(urlsplit(self.path).query))
                if method == "POST":
                    return self.create_todo(body)
                return self.method_not_allowed("GET, POST")
            if len(segments) == 2 and segments[0] == "todos":
                try:
                    todo_id = int(segments[1])
                except ValueError:
                    return self.send_json(404, {"message": f"No todo with id {segments[1]}"})
                if method == "GET":
                    return self.get_todo(todo_id)
                if method == "PUT":
                    return self.update_todo(todo_id, body)
                if method == "DELETE":
                    return self.delete_todo(todo_id)
                return self.method_not_allowed("GET, PUT, DELETE")
            if segments == ["account"] and method == "GET":
                return self.account()
            if len(segments) == 2 and segments[0] == "users" and method == "GET":
                user = USERS.get(segments[1])
                if user is None:
                    return self.send_json(404, {"message": f"No user {segments[1]}"})
                return self.send_json(200, user)
            self.send_json(404, {"message": f"No route for {method} {self.path}"})

        # Handlers

        def list_todos(self, query):
            with store.lock:
                todos = [store.todos[key] for key in sorted(store.todos)]
            if "per_page" not in query:
                return self.send_json(200, todos)
            # Paginated: `page` (from 1) and `per_page`, the next page named in a Link field.
            try:
                per_page = int(query["per_page"][0])
                page = int(query.get("page", ["1"])[0])
            except ValueError:
                return self.send_json(400, {"message": "page and per_page must be integers"})
            if per_page < 1 or page < 1:
                return self.send_json(400, {"message": "page and per_page must be at least 1"})
            start = (page - 1) * per_page
            headers = {}
            if start + per_page < len(todos):
                headers["Link"] = f'<todos?page={page + 1}&per_page={per_page}>; rel="next"'
            self.send_json(200, todos[start:start + per_page], headers)

        def create_todo(self, body):
            draft = self.parse_draft(body)
            if draft is None:
                return
            with store.lock:
                todo = {"id": store.next_id, "title": draft["title"],
                        "completed": draft.get("completed", False)}
                store.todos[todo["id"]] = todo
                store.next_id += 1
            self.send_json(201, todo)

        def get_todo(self, todo_id):
            with store.lock:
                todo = store.todos.get(todo_id)
            if todo is None:
                return self.send_json(404, {"message": f"No todo with id {todo_id}"})
            self.send_json(200, todo)

        def update_todo(self, todo_id, body):
            draft = self.parse_draft(body)
            if draft is None:
                return
            with store.lock:
                if todo_id not in store.todos:
                    todo = None
                else:
                    todo = {"id": todo_id, "title": draft["title"],
                            "completed": draft.get("completed", False)}
                    store.todos[todo_id] = todo
            if todo is None:
                return self.send_json(404, {"message": f"No todo with id {todo_id}"})
            self.send_json(200, todo)

        def delete_todo(self, todo_id):
            with store.lock:
                removed = store.todos.pop(todo_id, None)
            if removed is None:
                return self.send_json(404, {"message": f"No todo with id {todo_id}"})
            self.send_response(204)
            self.end_headers()

        def account(self):
            if self.headers.get("Authorization") != expected_auth:
                return self.send_json(401, {"message": "Missing or wrong API key"},
                                      {"WWW-Authenticate": 'Basic realm="todo"'})
            self.send_json(200, {"account_name": "Example Shop", "plan": "free"})

        # Helpers

        def read_body(self):
            """The request body, or None after answering 400 when it cannot be read."""
            length = self.headers.get("Content-Length")
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                return self.read_chunked()
            if length is None:
                return b""
            try:
                count = int(length)
            except ValueError:
                self.send_json(400, {"message": "Content-Length is not a number"})
                return None
            return self.rfile.read(count)

        def read_chunked(self):
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()

        def parse_draft(self, body):
            """The JSON draft, or None after answering 400 or 422."""
            try:
                draft = json.loads(body or b"null")
            except (ValueError, UnicodeDecodeError):
                self.send_json(400, {"message": "The body is not JSON"})
                return None
            if not isinstance(draft, dict):
                self.send_json(400, {"message": "The body is not a todo"})
                return None
            problem = validation_problem(draft)
            if problem is not None:
                self.send_json(422, problem)
                return None
            return draft

        def method_not_allowed(self, allowed):
            self.send_json(405, {"message": f"Allowed: {allowed}"}, {"Allow": allowed})

        def send_json(self, status, value, headers=None):
            data = json.dumps(value, sort_keys=True).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, field in (headers or {}).items():
                self.send_header(name, field)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def main():
    parser = argparse.ArgumentParser(description="The todo API of the Endpoint example.")
    parser.add_argument("port", type=int, help="the port on 127.0.0.1; 0 picks a free one")
    parser.add_argument("--api-key", default=DEMO_API_KEY,
                        help="the key /account accepts as the Basic password")
    args = parser.parse_args()
    if not 0 <= args.port <= 65535:
        parser.error(f"port {args.port} is not between 0 and 65535")

    try:
        server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(TodoStore(), args.api_key))
    except OSError as error:
        sys.exit(f"todo_server: cannot listen on 127.0.0.1:{args.port}: {error.strerror}")
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
