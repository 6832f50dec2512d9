"""Running wrk with a generated Lua script and reading its summary as JSON.

Each load is described by a list of (path, headers) targets and an optional
JSON body; the Lua script rotates over the targets and, for game mode, gives
every request a unique ``request_id`` (a run id, the thread number and a counter) so
each one is a new ledger record rather than an idempotent replay. The run id matters:
the counter starts again in every wrk run, and without it a load's warm-up and its
rounds would send the same ids to the same games, so that later runs measured mostly
replays of the records earlier runs wrote.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Target:
    path: str
    headers: dict[str, str]


@dataclass
class WrkResult:
    requests: int
    duration_s: float
    non_2xx: int
    socket_errors: int
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    #: CPU milliseconds the server's workers spent per request during the load (bench.http sets it)
    server_cpu_ms: float = 0.0

    @property
    def rps(self) -> float:
        return self.requests / self.duration_s if self.duration_s else 0.0

    def to_json(self) -> dict:
        return {**self.__dict__, "rps": round(self.rps, 1)}


def ensure_wrk() -> str:
    """The wrk binary; installs the Debian package when missing and running as root."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        quiet = {"check": False, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        if subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, **quiet).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, **quiet)  # package lists may be missing
            subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, **quiet)
        found = shutil.which("wrk")
        if found:
            return found
    raise RuntimeError("wrk is not installed (Debian: apt-get install wrk)")


def _lua_string(text: str) -> str:
    return json.dumps(text)  # a JSON string literal is a valid Lua string literal for ASCII text


LUA_TEMPLATE = r"""
local targets = {%(targets)s}
local method = %(method)s
local body = %(body)s
local unique_ids = %(unique_ids)s
local run_id = %(run_id)s
local next_thread = 1
counter = 0

function setup(thread)
  thread:set("tid", next_thread)
  next_thread = next_thread + 1
end

function request()
  counter = counter + 1
  local t = targets[(counter %% #targets) + 1]
  local b = body
  if unique_ids then
    b = string.sub(body, 1, -2) .. ',"request_id":"w' .. run_id .. '-' .. tid .. '-' .. counter .. '"}'
  end
  return wrk.format(method, t.path, t.headers, b)
end

function done(summary, latency, requests)
  io.write(string.format(
    'WRKJSON {"requests":%%d,"duration_us":%%d,"non_2xx":%%d,"socket_errors":%%d,' ..
    '"p50_us":%%d,"p90_us":%%d,"p99_us":%%d,"max_us":%%d}\n',
    summary.requests, summary.duration, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
"""


def lua_script(targets: list[Target], body: str | None, unique_ids: bool, run_id: str = "") -> str:
    entries = []
    for t in targets:
        headers = ", ".join(f"[{_lua_string(k)}] = {_lua_string(v)}" for k, v in t.headers.items())
        entries.append(f"{{path = {_lua_string(t.path)}, headers = {{{headers}}}}}")
    return LUA_TEMPLATE % {
        "targets": ", ".join(entries),
        "method": _lua_string("POST" if body is not None else "GET"),
        "body": _lua_string(body) if body is not None else "nil",
        "unique_ids": "true" if unique_ids else "false",
        "run_id": _lua_string(run_id),
    }


def run_wrk(base_url: str, targets: list[Target], *, body: str | None = None, unique_ids: bool = False,
            duration_s: int = 10, connections: int = 16, threads: int = 2) -> WrkResult:
    binary = ensure_wrk()
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as tmp:
        script = Path(tmp) / "load.lua"
        script.write_text(lua_script(targets, body, unique_ids, run_id=uuid.uuid4().hex[:12]), encoding="ascii")
        out = subprocess.run(
            [binary, "-t", str(threads), "-c", str(connections), "-d", f"{duration_s}s", "--timeout", "5s",
             "-s", str(script), base_url],
            capture_output=True, text=True, timeout=duration_s + 60,
        )
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("WRKJSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no summary:\n{out.stdout}\n{out.stderr}")
    data = json.loads(line[len("WRKJSON "):])
    return WrkResult(
        requests=data["requests"], duration_s=data["duration_us"] / 1e6, non_2xx=data["non_2xx"],
        socket_errors=data["socket_errors"], p50_ms=data["p50_us"] / 1000, p90_ms=data["p90_us"] / 1000,
        p99_ms=data["p99_us"] / 1000, max_ms=data["max_us"] / 1000,
    )
