"""The address a class can open (issue 20, item 4): which hosts are loopback, and the network
address offered instead, by how the server listens. (tests/e2e/test_lecture_hall.py makes a
worksheet through a loopback address and through a host name.)"""

from __future__ import annotations

import pytest

from rankviz.ui import address


@pytest.mark.parametrize("url, loopback", [
    ("http://localhost:8501/homework", True), ("http://app.localhost/", True), ("http://127.0.0.2:80", True),
    ("http://[::1]:8501", True), ("http://0.0.0.0:8501", True), ("https://ir.example.edu/rankviz", False),
    ("http://10.0.0.7:8501", False), ("http://[fd00::2]:8501", False), ("", False), ("homework?seed=7", False),
])
def test_loopback_hosts(url, loopback):
    assert address.is_loopback(url) is loopback


@pytest.mark.parametrize("bound, machine, expected", [
    ("127.0.0.1", "10.0.0.7", None),  # the server listens on this computer only: nothing to offer
    ("localhost", "10.0.0.7", None),
    ("", "10.0.0.7", "http://10.0.0.7:8501/homework"),  # every interface: this machine's address
    ("0.0.0.0", "10.0.0.7", "http://10.0.0.7:8501/homework"),
    ("0.0.0.0", None, None),  # no network interface found
    ("192.168.1.20", "10.0.0.7", "http://192.168.1.20:8501/homework"),  # the interface it listens on
])
def test_network_address_follows_where_the_server_listens(monkeypatch, bound, machine, expected):
    monkeypatch.setattr(address.st, "get_option", lambda name: bound if name == "server.address" else None)
    monkeypatch.setattr(address, "_machine_ip", lambda: machine)
    assert address.network_address("http://localhost:8501/homework") == expected
