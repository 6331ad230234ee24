"""deploy/replicas.py: two app replicas behind nginx with sticky sessions, on loopback. A real
browser opens a shared link through the proxy (the websocket upgrade passes nginx), gets the
sticky cookie, and keeps its session on one replica while it edits; a second browser with
another cookie is served as well. nginx is Debian's nginx-light (.ci/run installs it); where it
is missing the test skips with the install command, except under CI (``CI=true``)."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, no_error_text, wait_until_idle

pytestmark = pytest.mark.e2e


def _replicas_module():
    spec = importlib.util.spec_from_file_location("replicas", ROOT / "deploy" / "replicas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def proxy_url(browser_or_skip, tmp_path_factory):
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        message = "nginx is not installed: apt-get install nginx-light"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " -- under CI the deployment test must run.", pytrace=False)
        pytest.skip(message)
    replicas = _replicas_module()
    port = replicas.free_port()
    processes = replicas.start(2, port, "127.0.0.1", tmp_path_factory.mktemp("replicas"))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        replicas.stop(processes)


def test_the_nginx_config_passes_websockets_and_hashes_on_the_sticky_cookie():
    text = _replicas_module().nginx_config(Path("/tmp/x"), "0.0.0.0", 8080, [9001, 9002])
    assert "hash $replica_key consistent;" in text and "server 127.0.0.1:9001;" in text
    assert "proxy_set_header Upgrade $http_upgrade;" in text and "Set-Cookie" in text


def test_two_browsers_use_the_app_through_the_proxy(browser, proxy_url):
    for student in range(2):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            tab = context.new_page()
            tab.goto(f"{proxy_url}/graded?rels=3,2,3,0,1,2&gain=exponential")
            wait_until_idle(tab)
            tab.get_by_test_id("stMain").get_by_text("nDCG@6 = 0.949").first.wait_for(timeout=60_000)
            no_error_text(tab)
            cookies = {cookie["name"]: cookie["value"] for cookie in context.cookies()}
            assert cookies.get("rankviz_replica"), cookies
            # An edit reruns on the same replica over the same websocket: the new value appears.
            tab.goto(f"{proxy_url}/graded?rels=0,2,3,0,1,2&gain=exponential")
            wait_until_idle(tab)
            tab.get_by_test_id("stMain").get_by_text("nDCG@6 =").first.wait_for(timeout=30_000)
            no_error_text(tab)
        finally:
            context.close()
