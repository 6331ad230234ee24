"""The address a class can open: the one the browser reached the app by, and a word when that is loopback.

A link the app prints (a worksheet's, a page's address to share) is only as good as its host. A
lecturer who opened the app at ``http://localhost:8501``, the address ``streamlit run`` and the
README suggest, handed out sheets whose links no student could open. The app knows no better
public name than the one the browser used (behind a course's web server, ``st.context.url`` is
that server's address), so links use it, and where it is loopback the page says so and names
this machine's network address when the server listens on the network.

>>> is_loopback("http://localhost:8501/homework"), is_loopback("http://127.0.0.1:8502")
(True, True)
>>> is_loopback("https://ir.example.edu/rankviz/homework"), is_loopback("http://192.168.1.20:8501")
(False, False)
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import streamlit as st

from rankviz.i18n import _

__all__ = ["is_loopback", "browser_address", "network_address", "loopback_warning"]


def is_loopback(url: str) -> bool:
    """True when ``url``'s host is this computer only: ``localhost`` (and ``*.localhost``), an
    address in 127.0.0.0/8, ``::1`` or the unspecified ``0.0.0.0`` / ``::``.

    >>> is_loopback("http://[::1]:8501/"), is_loopback("http://0.0.0.0:8501"), is_loopback("")
    (True, True, False)
    """
    host = (urlsplit(url).hostname or "").lower()
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def browser_address() -> str:
    """The address of this page as the browser reached it, without its query (``""`` when unknown,
    e.g. in AppTest): ``http://localhost:8501/homework``.

    Streamlit's ``st.context.url`` is the browser's own; before the browser has said it, the
    request's ``Host`` header (and a proxy's ``X-Forwarded-Proto``) names the server it asked.
    """
    url = str(st.context.url or "")
    if url.startswith(("http://", "https://")):
        return url.split("?", 1)[0]
    headers = st.context.headers or {}
    host = headers.get("Host")
    if not host:
        return ""
    return f"{headers.get('X-Forwarded-Proto', 'http')}://{host}"


def _machine_ip() -> str | None:
    # The address of the interface that would route outwards; a UDP connect sends nothing.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never reached, only routed
            ip = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(ip).is_loopback else ip


def network_address(page_address: str) -> str | None:
    """``page_address`` with its host replaced by this machine's network address, when the server
    listens beyond loopback (``server.address`` unset, ``0.0.0.0`` or a network host); else None."""
    bound = str(st.get_option("server.address") or "").strip("[]")
    everywhere = bound in ("", "0.0.0.0", "::")
    if not everywhere and is_loopback(f"http://[{bound}]" if ":" in bound else f"http://{bound}"):
        return None
    host = _machine_ip() if everywhere else bound
    if not host:
        return None
    parts = urlsplit(page_address)
    port = f":{parts.port}" if parts.port else ""
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{port}{parts.path}"


def loopback_warning(what: str, where=None) -> bool:
    """Say, under ``what`` (e.g. "The sheet's links"), that the browser's address is loopback and
    the class cannot open it, naming the network address to use instead where there is one.
    Returns True when it warned."""
    address = browser_address()
    if not is_loopback(address):
        return False
    shared = network_address(address)
    instead = (_("Open the app at {address} (this computer on the network) and share that address.").format(
                   address=shared) if shared else
               _("Start the app on an address the class can reach (`--server.address 0.0.0.0`, or behind the "
                 "course's web server) and open it there."))
    (where or st).warning(_("{what} start {address}: the address this browser opened the app by, which "
                            "only this computer can open.").format(what=what, address=address.rstrip("/"))
                          + f" {instead}", icon=":material/link_off:")
    return True
