"""What a host's top-level domain says about its languages: ``.ca`` -> en, fr; ``.hk`` -> zh-Hant,
yue, en; ``.com`` -> nothing.

The table (``tld_table.py``) is generated from CLDR's territory-language data by
``build_tld_languages.py``, whose docstring states the rule (official languages, regional official
ones spoken by >= 1 %, any language spoken by >= 50 %) and the special cases (.uk, .eu, .su, the
ccTLDs used generically such as .io .ai .tv .co .me .fm, the language-community gTLDs such as .cat).

Hosts are split with tldextract and the Public Suffix List snapshot it bundles, never a fetched
one: ``TLDExtract(suffix_list_urls=(), cache_dir=None)`` reads no network and no disk cache.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from functools import lru_cache
from urllib.parse import urlsplit

import idna
import tldextract

from bilingual_spider.language import tld_table

_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
CCTLD_LANGUAGES: dict[str, tuple[str, ...]] = {
    tld: tuple(codes.split()) for tld, codes in tld_table.CCTLD_LANGUAGES.items()
}
GENERIC_USE_CCTLDS: frozenset[str] = frozenset(tld_table.GENERIC_USE_CCTLDS.split())
COMMUNITY_TLD_LANGUAGES: dict[str, tuple[str, ...]] = {
    tld: tuple(codes.split()) for tld, codes in tld_table.COMMUNITY_TLD_LANGUAGES.items()
}
_TLD = re.compile(r"[a-z]{2,63}|xn--[a-z0-9-]{1,59}")
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})  # ideographic full stops


@lru_cache(maxsize=1 << 16)  # a crawl asks for the same hosts again and again
def host_of(host_or_url: str) -> str:
    """The host of a URL or host name, lower-case ASCII (IDN as punycode), without port, user
    or trailing dot; an IP address in its canonical form; ``""`` when there is none.

    >>> host_of("HTTP://User@Www.Example.CO.UK.:8080/a"), host_of("пример.рф"), host_of("[::1]")
    ('www.example.co.uk', 'xn--e1afmkfd.xn--p1ai', '::1')
    """
    text = host_or_url.strip().translate(_DOTS)
    if not text:
        return ""
    try:
        parts = urlsplit(text if "//" in text else f"//{text}")
        host = (parts.hostname or "").rstrip(".")
    except ValueError:  # an unbalanced "[" of an IPv6 literal
        return ""
    if not host:
        return ""
    address = ip_address_of(host)
    return str(address) if address is not None else _ascii_host(host)


def tld_of(host_or_url: str) -> str:
    """The last label of the host's public suffix: ``hk`` for www.info.gov.hk, ``uk`` for
    bbc.co.uk, ``xn--p1ai`` for .рф; ``""`` for an IP address, an empty host or a last label that
    is no TLD (all digits, ``_``). Unknown TLDs are returned too (``example``): the Public Suffix
    List's rule is that a label it does not list is a suffix.

    >>> tld_of("http://www.info.gov.hk/"), tld_of("bbc.co.uk"), tld_of("10.0.0.1")
    ('hk', 'uk', '')
    """
    host = host_of(host_or_url)
    if not host or _is_ip(host):
        return ""
    last = host.rsplit(".", 1)[-1]
    return last if _TLD.fullmatch(last) else ""


def registered_domain(host_or_url: str) -> str:
    """The domain registered under the host's public suffix (``bbc.co.uk`` for news.bbc.co.uk);
    ``""`` when the host has none: an IP address, a bare suffix (``co.uk``), a single label.

    Only the ICANN part of the Public Suffix List counts: ``user.github.io`` -> ``github.io``. A
    TLD the list does not know counts as a suffix of one label (``bilingual.example``).

    >>> registered_domain("https://news.bbc.co.uk/x"), registered_domain("www.bilingual.example")
    ('bbc.co.uk', 'bilingual.example')
    """
    name, suffix = domain_parts(host_of(host_or_url))
    return f"{name}.{suffix}" if name else ""


def public_suffix(host_or_url: str) -> str:
    """The host's public suffix (``co.uk``, ``com.co``, ``hk``), by the same rules."""
    return domain_parts(host_of(host_or_url))[1]


@lru_cache(maxsize=1 << 16)  # asked of the same hosts again and again
def domain_parts(host: str, private_domains: bool = False) -> tuple[str, str]:
    """``(name, suffix)`` of a host's registered domain: ``("bbc", "co.uk")``; ``("", "")`` for
    an IP address or an empty host, ``("", suffix)`` for a bare suffix. A TLD the list does not
    know is a suffix of one label. ``private_domains``: the Public Suffix List's private part
    counts too (``user.github.io`` is then a domain of its own, ``("user", "github.io")``).

    >>> domain_parts("news.bbc.co.uk"), domain_parts("a.b.github.io", private_domains=True)
    (('bbc', 'co.uk'), ('b', 'github.io'))
    """
    if not tld_of(host):
        return "", ""
    parts = _EXTRACT.extract_str(host, include_psl_private_domains=private_domains)
    if parts.suffix:
        return parts.domain, parts.suffix
    labels = host.split(".")
    return (labels[-2] if len(labels) >= 2 else ""), labels[-1]


def languages_of_tld(tld: str) -> tuple[str, ...]:
    """The languages of a TLD (``"hk"`` or ``".HK"``), most spoken first, in the project's codes;
    ``()`` for generic TLDs (.com, .org, .io, .tv, ...) and TLDs the table does not know.

    >>> languages_of_tld("ca"), languages_of_tld(".CN"), languages_of_tld("com")
    (('en', 'fr'), ('zh-Hans',), ())
    """
    tld = tld.strip().strip(".").lower()
    if tld in GENERIC_USE_CCTLDS:
        return ()
    return CCTLD_LANGUAGES.get(tld) or COMMUNITY_TLD_LANGUAGES.get(tld, ())


def languages_of_host(host_or_url: str) -> tuple[str, ...]:
    """The languages the host's TLD suggests (see :func:`languages_of_tld`). A ccTLD used
    generically counts for its country below the country's own second-level suffixes:
    ``example.co`` -> ``()``, but ``empresa.com.co`` -> ``('es',)``.

    >>> languages_of_host("https://www.info.gov.hk/"), languages_of_host("github.io")
    (('zh-Hant', 'yue', 'en'), ())
    """
    tld = tld_of(host_or_url)
    if tld in GENERIC_USE_CCTLDS and "." in public_suffix(host_or_url):
        return CCTLD_LANGUAGES.get(tld, ())
    return languages_of_tld(tld)


def ip_address_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address a host is written as (``[::1]`` too), or None for a name. A name is told
    apart without calling ``ip_address``, whose ValueError costs more than the rest of a URL's
    checks: an IPv4 address starts with a digit, an IPv6 one holds a colon.

    >>> ip_address_of("[::1]"), ip_address_of("10.0.0.1"), ip_address_of("3com.com")
    (IPv6Address('::1'), IPv4Address('10.0.0.1'), None)
    """
    host = host.strip("[]")
    if not host or not (host[0].isdigit() or ":" in host):
        return None
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _is_ip(host: str) -> bool:
    return ip_address_of(host) is not None


def _ascii_host(host: str) -> str:
    """A host name as DNS spells it: IDNA 2008 with UTS 46 mapping, else label by label."""
    if host.isascii():
        return host.lower()
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        labels = unicodedata.normalize("NFKC", host).casefold().split(".")
        return ".".join(_ascii_label(label) for label in labels)


def _ascii_label(label: str) -> str:
    if label.isascii():
        return label
    try:
        return "xn--" + label.encode("punycode").decode("ascii")
    except UnicodeError:
        return label.encode("ascii", "replace").decode("ascii")
