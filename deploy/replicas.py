"""Several app replicas behind nginx with sticky sessions, started by one command.

    python deploy/replicas.py --replicas 2 --port 8080          # then open http://localhost:8080

One Streamlit process runs a class's scripts on one core (one GIL), so past ~30 students a
lecture hall wants more processes. Each replica is a ``streamlit run app.py`` on a loopback
port; nginx (Debian's ``nginx-light``) listens on ``--port`` and passes HTTP and the websocket
upgrade to the replicas. A session must stay on one replica (its websocket, and the uploads the
run-files page sends over HTTP), so nginx hashes on a cookie it hands out on the first response
(``rankviz_replica``): every later request of that browser, the websocket included, reaches the
same replica. Open-source nginx has no ``sticky cookie``; ``hash $cookie consistent`` is its
equivalent, and unlike ``ip_hash`` it spreads students behind one NAT (a campus network) over
the replicas. Ctrl-C (or SIGTERM) stops nginx and every replica.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COOKIE = "rankviz_replica"

NGINX_CONF = """\
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    client_max_body_size 200m;  # .streamlit/config.toml's maxUploadSize

    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    # A browser without the cookie yet gets one (the request id: random); with it, keeps it.
    map $cookie_{cookie} $replica_key {{ "" $request_id; default $cookie_{cookie}; }}

    upstream rankviz {{
        hash $replica_key consistent;
{servers}
    }}

    server {{
        listen {address}:{port};
        location / {{
            proxy_pass http://rankviz;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_read_timeout 1d;  # a websocket stays open for the whole lecture
            proxy_buffering off;
            add_header Set-Cookie "{cookie}=$replica_key; Path=/; SameSite=Lax; HttpOnly" always;
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_config(tmp: Path, address: str, port: int, replica_ports: list[int]) -> str:
    """The nginx configuration: ``port`` on ``address`` in front of the replicas' loopback ports."""
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in replica_ports)
    return NGINX_CONF.format(tmp=tmp, address=address, port=port, servers=servers, cookie=COOKIE)


def wait_healthy(url: str, processes, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"{process.args[:4]} exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s")


def start(replicas: int, port: int, address: str, log_dir: Path) -> list[subprocess.Popen]:
    """Start the replicas and nginx; return their processes (nginx last) once all answer."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("nginx is not installed: apt-get install nginx-light")
    ports = [free_port() for _ in range(replicas)]
    processes = []
    for i, replica_port in enumerate(ports):
        log = open(log_dir / f"replica{i + 1}.log", "w")  # noqa: SIM115 (the process keeps it open)
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(replica_port),
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))
    for replica_port in ports:
        wait_healthy(f"http://127.0.0.1:{replica_port}/_stcore/health", processes)
    conf = log_dir / "nginx.conf"
    conf.write_text(nginx_config(log_dir, address, port, ports))
    processes.append(subprocess.Popen([nginx, "-c", str(conf), "-p", str(log_dir)], cwd=log_dir))
    wait_healthy(f"http://{'127.0.0.1' if address in ('0.0.0.0', '') else address}:{port}/_stcore/health",
                 processes)
    return processes


def stop(processes) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2, help="app processes (about one per core)")
    parser.add_argument("--port", type=int, default=8080, help="the port students open")
    parser.add_argument("--address", default="0.0.0.0", help="where nginx listens (0.0.0.0: every interface)")
    args = parser.parse_args(argv)
    if args.replicas < 1:
        parser.error("--replicas must be at least 1")
    with tempfile.TemporaryDirectory(prefix="rankviz-replicas-") as tmp:
        processes = start(args.replicas, args.port, args.address, Path(tmp))
        print(f"rankviz: {args.replicas} replicas behind nginx on http://{args.address}:{args.port} "
              f"(logs in {tmp}); Ctrl-C stops them.", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
        try:
            while all(process.poll() is None for process in processes):
                time.sleep(1)
            print("rankviz: a process stopped; stopping the others.", file=sys.stderr)
        except KeyboardInterrupt:
            pass
        finally:
            stop(processes)


if __name__ == "__main__":
    main()
