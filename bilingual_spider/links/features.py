"""Features of a link for the Link Predictor: words, each tagged with the context it came from.

Barbosa et al. (2011), sec. 2.1 and 3: "features in 5 different contexts: tokens in the URL,
anchor, around, image alt and image src"; "we remove stop-words and stem the remaining words";
"features are associated with a context" (``anchor:hotel`` and ``url:hotel`` are two features);
"words in the host context have an important role" (``es``, ``de``). :func:`link_tokens` gives
those, and a few more a page tells for free:

- ``title:`` and ``hreflang:`` (the link's attributes), ``tld:`` (the target's top-level domain);
- ``site:`` where the target is: ``self``, ``same_host``, ``same_domain`` (same registered
  domain), ``same_name`` (same name under another suffix: ``example.com`` -> ``example.es``),
  ``other``;
- ``diff:`` what the target URL has that the page's URL has not (``diff:+es``) and the reverse
  (``diff:-en``): a link to a translation differs from its page by a language unit
  (Zhang et al. 2018's pairing patterns), an ordinary link by a page name;
- markers that make a switcher to a language never seen in training look like one:
  ``anchor:~lang`` when the anchor names a language (any of 162, in many languages, from CLDR:
  :mod:`bilingual_spider.language.names`), ``url:~lang`` when a URL unit is a language code,
  ``src:~lang`` for a flag-like image name, each with ``~lang=other`` or ``~lang=same`` when the
  page's own language is known (``<html lang>``, else a code in the page's URL).

Words are lower-cased (NFKC), English and page-language stop words are dropped from text that has
more than one word, and words longer than three letters are stemmed (Snowball English, PyStemmer)
except language codes. Chinese and Japanese have no spaces: a run of such characters gives
itself (up to :data:`MAX_RUN_TOKEN` characters) and its character bigrams, so ``繁體中文`` gives
``繁體中文``, ``繁體``, ``體中``, ``中文``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote, urlsplit

import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
from stop_words import LANGUAGE_MAPPING, get_stop_words

from bilingual_spider.language.codes import base_language, normalize_language_code
from bilingual_spider.language.declared_language import language_script, script_of
from bilingual_spider.language.language_names_table import NAMES
from bilingual_spider.language.names import (
    language_of_code,
    language_of_name,
    names_a_language,
)
from bilingual_spider.language.tld import (
    CCTLD_LANGUAGES,
    host_of,
    languages_of_tld,
    public_suffix,
    registered_domain,
    tld_of,
)
from bilingual_spider.links.contexts import LinkContext

FEATURES_VERSION = "1"
"""Changes whenever :func:`link_tokens` does: a model is only valid with the version it had."""
MAX_RUN_TOKEN = 6
"""A run of Chinese/Japanese characters up to this long is also a token of its own."""
MAX_DIFF_TOKENS = 8
TEXT_FEATURES_CACHE = 4096
"""The features of this many texts (a context's name, its text, the page's language) are
remembered, least recently used out: a site's menus and footers give the same anchors and the
same words around them on each of its pages."""
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_TEXT_WORD = re.compile(rf"[{_UNSPACED}]+|[^\W\d_{_UNSPACED}]+")
_URL_SEPARATORS = re.compile(r"[/.?&=;,+:~!@$()*'\"#%\s\[\]{}|\\^`<>]+")
_LOCALE = re.compile(r"^[a-z]{2,3}[-_](?:[a-z]{2}|\d{3}|hans|hant|latn|cyrl)$", re.I)
_URL_WORD = re.compile(rf"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[{_UNSPACED}]+|[^\W\d_]+")
_IS_UNSPACED = re.compile(rf"[{_UNSPACED}]")
_LABEL_PART = re.compile(r"\s*[()/|,;:·•–—\[\]]\s*")
_FILE_WORD = re.compile(r"[^a-z0-9]+")
_URL_STOP_WORDS = frozenset({"http", "https", "www"})
_STEMMER = Stemmer.Stemmer("english")
_TEXT_CONTEXTS = ("anchor", "around", "alt", "title")


def link_tokens(context: LinkContext, hide_languages: bool = False) -> list[str]:
    """The features of one link: ``context:word`` strings (see the module docstring).

    ``hide_languages`` leaves out the words that name a language or are its code (``español``,
    ``url:es``, ``diff:+es``, ``hreflang:es``, a flag's ``src:es``) and keeps the markers
    (``anchor:~lang``): training on some links seen so teaches the model that a switcher to any
    language, not only to the few in the training data, looks like one.

    >>> from bilingual_spider.links.contexts import extract_link_contexts
    >>> page = '<html lang="en"><a href="/es/index.html">Español</a></html>'
    >>> tokens = link_tokens(extract_link_contexts(page, "http://example.com/en/")[0])
    >>> [t for t in tokens if t.startswith(("url:", "anchor:"))]
    ['url:es', 'url:index', 'url:html', 'url:~lang', 'url:~lang=other', 'anchor:español', \
'anchor:~lang', 'anchor:~lang=other']
    """
    page_language = _page_language(context)
    stop = _stop_words(context.page_lang)
    tokens: list[str] = []
    url_words = _url_words(context.url)
    target = _host_facts(_netloc(context.url))
    hide = hide_languages
    tokens.extend(_url_features(url_words, page_language, hide))
    tokens.extend(_host_features(target, page_language, hide))
    tokens.append(f"site:{_relation_of(context.url, target, context.page_url)}")
    tokens.extend(_diff_features(context.page_url, url_words, target, hide))
    for name, text in zip(
        _TEXT_CONTEXTS,
        (context.anchor, context.around, context.img_alt, context.title),
        strict=True,
    ):
        tokens.extend(_text_features(name, text, stop, page_language, hide))
    if not context.anchor:
        tokens.append("anchor:~none")
    tokens.extend(_src_features(context.img_src, page_language, hide))
    if context.hreflang:
        if not hide:
            tokens.append(f"hreflang:{context.hreflang.lower()}")
        tokens.append("hreflang:~lang")
        tokens.extend(_relation("hreflang", context.hreflang, page_language))
    return tokens


NEIGHBOURHOOD_CONTEXTS = ("url:", "host:", "anchor:", "around:")
"""The four contexts of the link neighbourhood of Barbosa et al. (``url:`` holds no host words)."""


def neighbourhood_link_tokens(context: LinkContext, around: str) -> list[str]:
    """The tokens of :func:`link_tokens` in the link-neighbourhood contexts only (``url:``,
    ``host:``, ``anchor:``, ``around:``, in its order), the text around the link being
    ``around``: what the link classifiers of the back-and-forth crawl learn from, made without
    the contexts they do not use."""
    page_language = _page_language(context)
    stop = _stop_words(context.page_lang)
    tokens = _url_features(_url_words(context.url), page_language)
    host = _host_features(_host_facts(_netloc(context.url)), page_language)
    tokens.extend(token for token in host if token.startswith("host:"))
    tokens.extend(_text_features("anchor", context.anchor, stop, page_language))
    tokens.extend(_text_features("around", around, stop, page_language))
    if not context.anchor:
        tokens.append("anchor:~none")
    return tokens


# -- words ---------------------------------------------------------------------------------


def text_words(text: str) -> list[str]:
    """Lower-cased words of a text; a run of Chinese/Japanese characters is one word."""
    return _TEXT_WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def url_units(url: str) -> list[str]:
    """The path and query of a URL cut at ``/ . ? & = ...``, percent-decoded, case kept."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    text = unquote(parts.path + ("?" + parts.query if parts.query else ""), errors="replace")
    return [unit for unit in _URL_SEPARATORS.split(text) if unit]


@lru_cache(maxsize=4096)
def _url_words(url: str) -> tuple[str, ...]:
    """URL words: units split at ``- _``, case changes and digits; locales (``zh-tw``) are
    kept whole as well as split."""
    words: list[str] = []
    for unit in url_units(url):
        if _LOCALE.match(unit) and language_of_code(unit):
            words.append(unit.lower().replace("_", "-"))
        for piece in re.split(r"[-_]+", unit):
            if language_of_code(piece):
                words.append(piece.lower())  # ES, eng: a code whatever its case
                continue
            words.extend(w.lower() for w in _URL_WORD.findall(piece))
    return tuple(w for w in words if w not in _URL_STOP_WORDS)


def _terms(words: Sequence[str], stop: frozenset[str], hide: bool = False) -> list[str]:
    """Stop words out (when there are several words), the rest stemmed; CJK runs as run and
    bigrams. ``hide``: language names and, alone, codes out too."""
    several = len(words) > 1
    terms: list[str] = []
    for word in words:
        if hide and _is_language_word(word, alone=not several):
            continue
        if _IS_UNSPACED.match(word):
            terms.extend(_cjk_terms(word))
        elif several and word in stop:
            continue
        else:
            terms.append(_stem(word))
    return terms


def _is_language_word(word: str, alone: bool = True) -> bool:
    """A language's name (``español``, ``中文版``) or, when ``alone``, its code (``es``)."""
    if _named_language(word):
        return True
    return alone and language_of_code(word) is not None


def _cjk_terms(run: str) -> list[str]:
    terms = [run] if len(run) <= MAX_RUN_TOKEN else []
    if len(run) > 2:
        terms.extend(run[i : i + 2] for i in range(len(run) - 1))
    return terms


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    if len(word) <= 3 or language_of_code(word):
        return word
    return _STEMMER.stemWord(word)


@lru_cache(maxsize=256)
def _stop_words(page_lang: str) -> frozenset[str]:
    """English stop words (scikit-learn's list) and those of the page's language (the
    ``stop-words`` package: function words of 33 languages); never a language's name."""
    words = set(ENGLISH_STOP_WORDS)
    base = base_language(page_lang) if page_lang else ""
    if base in LANGUAGE_MAPPING and base != "en":
        words.update(w.casefold() for w in get_stop_words(base))
    return frozenset(w for w in words if w not in NAMES)


# -- contexts ------------------------------------------------------------------------------


def _url_features(words: Sequence[str], page_language: str, hide: bool = False) -> list[str]:
    shown = [w for w in words if not _is_language_word(w)] if hide else words
    tokens = [f"url:{w}" for w in _terms(shown, frozenset())]
    codes = [code for w in words if (code := language_of_code(w))]
    if codes:
        tokens.append("url:~lang")
        tokens.extend(_relation("url", codes[0], page_language))
    return tokens


@dataclass(frozen=True)
class _HostFacts:
    host: str
    labels: tuple[str, ...]
    tld: str
    domain: str  # registered domain
    name: str  # registered domain without its public suffix


@lru_cache(maxsize=4096)
def _host_facts(netloc: str) -> _HostFacts:
    host = host_of(netloc)
    domain = registered_domain(host)
    name = domain[: -len(public_suffix(host))] if domain else ""
    return _HostFacts(host, tuple(host.split(".")) if host else (), tld_of(host), domain, name)


def _netloc(url: str) -> str:
    try:
        return urlsplit(url).netloc
    except ValueError:
        return ""


def _host_features(facts: _HostFacts, page_language: str, hide: bool = False) -> list[str]:
    code = language_of_code(facts.labels[0]) if len(facts.labels) > 2 else None
    labels = facts.labels[1:] if hide and code else facts.labels
    tokens = [f"host:{label}" for label in labels if label]
    if facts.tld:
        tokens.append(f"tld:{facts.tld}")
    if code:
        tokens.append("host:~lang")
        tokens.extend(_relation("host", code, page_language))
    return tokens


def site_relation(url: str, page_url: str) -> str:
    """Where ``url`` is seen from ``page_url``: ``self``, ``same_host``, ``same_domain``,
    ``same_name`` (``example.com`` -> ``example.es``) or ``other``."""
    return _relation_of(url, _host_facts(_netloc(url)), page_url)


def _relation_of(url: str, target: _HostFacts, page_url: str) -> str:
    if url == page_url:
        return "self"
    page = _host_facts(_netloc(page_url))
    if target.host == page.host:
        return "same_host"
    if target.domain and target.domain == page.domain:
        return "same_domain"
    if target.name and target.name == page.name:
        return "same_name"
    return "other"


@lru_cache(maxsize=1024)
def _page_units(page_url: str) -> frozenset[str]:
    """The page URL's words and host labels (``h.www``), as :func:`_diff_features` compares."""
    labels = _host_facts(_netloc(page_url)).labels
    return frozenset(_url_words(page_url)) | {f"h.{label}" for label in labels}


def _diff_features(
    page_url: str, url_words: Sequence[str], target: _HostFacts, hide: bool = False
) -> list[str]:
    """What the target's URL words add to the page's, and what they drop."""
    units = set(url_words) | {f"h.{label}" for label in target.labels}
    page = _page_units(page_url)
    added, dropped = sorted(units - page), sorted(page - units)
    gains = any(language_of_code(w.removeprefix("h.")) for w in added)
    loses = any(language_of_code(w.removeprefix("h.")) for w in dropped)
    tokens = [f"diff:+{w}" for w in _shown(added, hide)[:MAX_DIFF_TOKENS]]
    tokens.extend(f"diff:-{w}" for w in _shown(dropped, hide)[:MAX_DIFF_TOKENS])
    tokens.append(f"diff:n={min(len(added), 3)}/{min(len(dropped), 3)}")
    if gains:
        tokens.append("diff:+~lang")
    if loses:
        tokens.append("diff:-~lang")
    if gains and loses:
        tokens.append("diff:~swap")  # one language unit for another: /en/x -> /es/x
    return tokens


def _shown(units: list[str], hide: bool) -> list[str]:
    if not hide:
        return units
    return [unit for unit in units if not language_of_code(unit.removeprefix("h."))]


@lru_cache(maxsize=TEXT_FEATURES_CACHE)
def _text_features(
    context: str, text: str, stop: frozenset[str], page_language: str, hide: bool = False
) -> tuple[str, ...]:
    if not text:
        return ()
    words = text_words(text)
    tokens = [f"{context}:{term}" for term in _terms(words, stop, hide)]
    if context == "around":
        return tuple(tokens)
    named = language_of_name(text) or language_of_name(" ".join(words))
    if named is None:
        named = next((n for w in words if (n := _named_language(w))), None)
    if named is None and len(words) == 1:
        named = language_of_code(words[0])
    if named:
        tokens.append(f"{context}:~lang")
        tokens.extend(_relation(context, named, page_language))
    return tuple(tokens)


def named_languages(text: str) -> frozenset[str]:
    """The languages a text names, word by word (``Site (English, Español)``: en, es)."""
    return frozenset(n for word in text_words(text) if (n := _named_language(word)))


@lru_cache(maxsize=65536)
def _named_language(word: str) -> str | None:
    """The language a word names; in a short run of Chinese/Japanese characters, the language
    any part of it names (``日本語版``: ja)."""
    found = language_of_name(word)
    if found is None and _IS_UNSPACED.match(word) and 2 < len(word) <= 2 * MAX_RUN_TOKEN:
        parts = (word[i:j] for i in range(len(word)) for j in range(i + 2, len(word) + 1))
        found = next((n for part in parts if (n := language_of_name(part))), None)
    return found


def _src_features(img_src: str, page_language: str, hide: bool = False) -> list[str]:
    tokens: list[str] = []
    for src in img_src.split():
        words = list(_url_words(src))
        languages = [lang for w in words if (lang := flag_language(w))]
        shown = [w for w in words if not flag_language(w)] if hide else words
        tokens.extend(f"src:{w}" for w in _terms(shown, frozenset()))
        if languages:
            tokens.append("src:~lang")
            tokens.extend(_relation("src", languages[-1], page_language))
    return tokens


def flag_language(word: str) -> str | None:
    """The language of a flag image's name (a word of its file name): a country (``gb``,
    ``jp``) or a language code."""
    if len(word) == 2 and word in CCTLD_LANGUAGES:
        languages = languages_of_tld(word)
        if languages:
            return languages[0]
    return language_of_code(word)


def labelled_language(
    hreflang: str = "", anchor: str = "", img_alt: str = "", img_src: str = "", lang: str = ""
) -> str:
    """The language a link's own label names: its ``hreflang``, else its anchor text or image
    alt text when that (or a part of it between brackets, slashes or bars: ``français (fr)``)
    is a language's name or code, else the ``lang`` its label is written in (a switcher's
    ``<a lang="ty">Reo Tahiti</a>``: an own name no table knows), else a flag image's name
    (``flags/fr.png``); "" when none. Its URL is not asked: ``/es/faq.html`` is a Spanish page,
    not a link that offers Spanish.
    """
    if hreflang:
        code = normalize_language_code(hreflang)
        if code and code != "x":
            return code
    words, flag = label_symbols(anchor)
    for text in (words, img_alt):
        if text and (code := _label_language(text)):
            return code
    if lang and (code := normalize_language_code(lang)) and names_a_language(code):
        return code
    for src in img_src.split():
        if code := _image_language(src):
            return code
    return flag_language(flag) or "" if flag else ""


_REGIONAL_INDICATOR_A = 0x1F1E6


@lru_cache(maxsize=4096)
def label_symbols(label: str) -> tuple[str, str]:
    """A label's words without its symbols (an emoji flag, an arrow: ``🇳🇱 Nederlands ▾`` ->
    ``Nederlands``), and the country code its emoji flag spells (``nl``; "" when none): two
    regional indicator letters, as a flag image's name is a country's."""
    flag = "".join(
        chr(ord("a") + ord(char) - _REGIONAL_INDICATOR_A)
        for char in label
        if 0 <= ord(char) - _REGIONAL_INDICATOR_A < 26
    )
    words = "".join(" " if unicodedata.category(char)[0] == "S" else char for char in label)
    return " ".join(words.split()), flag if len(flag) == 2 else ""


LANGUAGES_PAGE_LABELS = frozenset(
    {
        "languages", "language", "translations", "other languages", "in other languages",
        "available languages", "select language", "select your language", "choose language",
        "choose your language", "change language", "language selection", "switch language",
        "read in your language", "langues", "langue", "traductions", "autres langues",
        "idiomas", "idioma", "traducciones", "otros idiomas", "línguas", "traduções",
        "outros idiomas", "sprachen", "sprache", "übersetzungen", "andere sprachen", "lingue",
        "lingua", "traduzioni", "altre lingue", "talen", "taal", "vertalingen", "andere talen",
        "języki", "tłumaczenia", "diller", "çeviriler", "языки", "язык", "переводы",
        "другие языки", "语言", "語言", "翻译", "翻譯", "其他语言", "其他語言", "言語", "翻訳",
        "他の言語", "언어", "번역", "اللغات", "اللغة", "ترجمات",
    }
)  # fmt: skip
"""What a link to a site's languages says (a home's "Translations", an article's "🌐 Languages"),
in the languages most used on the web."""
_GLOBE = "\U0001f310"


def leads_to_languages(anchor: str = "", img_alt: str = "", title: str = "") -> bool:
    """Whether a link's label says it leads to the site's languages, not to one of them: a
    globe (🌐), or a label of :data:`LANGUAGES_PAGE_LABELS` (``Translations``, ``Other
    languages:``, ``Sprachen``), its case, spaces and punctuation aside.

    >>> leads_to_languages("🌐 Languages"), leads_to_languages("Translations")
    (True, True)
    >>> leads_to_languages("Other languages:"), leads_to_languages("Français")
    (True, False)
    """
    for text in (anchor, img_alt, title):
        if _GLOBE in text:
            return True
        words = "".join(ch if ch.isalnum() else " " for ch in text.casefold()).split()
        if words and " ".join(words) in LANGUAGES_PAGE_LABELS:
            return True
    return False


def _image_language(src: str) -> str:
    """The language an image's file names: a language code (``en.png``), or a country's when
    the image is a flag (``flags/jp.gif``, ``flag_br.svg``); ``py.png`` is a logo, not
    Paraguay's flag."""
    stem = src.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    words = [word for word in _FILE_WORD.split(stem) if word]
    if not words:
        return ""
    if "flag" in src.lower():
        return flag_language(words[-1]) or ""
    return language_of_code(words[-1]) if len(words) == 1 else ""


def _label_language(text: str) -> str:
    """The language a link's label names, whole or by one of its bracketed or separated parts,
    else by its first word where that is the language's name in its own script, not Latin, and
    the whole label is in that script (Cherokee's ``ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ``, "Cherokee language"; a
    Chinese menu's ``意大利语 键盘``, "Italian keyboard", names Italian in another script than
    Italian's: no language)."""
    for part in (text, *_LABEL_PART.split(text)):
        part = part.strip()
        if part and (code := language_of_name(part) or language_of_code(part)):
            return code
    first, _, rest = text.strip().partition(" ")
    code = language_of_name(first) if rest else None
    script = language_script(code) if code else None
    if script and script != "LATIN" and script_of(first) == script == script_of(text):
        return code or ""
    return ""


# -- languages -----------------------------------------------------------------------------


def _page_language(context: LinkContext) -> str:
    """The page's language as far as the link's context tells: ``<html lang>``, else the first
    language code in its URL (path, then the first host label)."""
    if context.page_lang:
        return _comparable(context.page_lang)
    return _url_language(context.page_url)


@lru_cache(maxsize=1024)
def _url_language(page_url: str) -> str:
    for word in _url_words(page_url):
        code = language_of_code(word)
        if code:
            return _comparable(code)
    labels = _host_facts(_netloc(page_url)).labels
    code = language_of_code(labels[0]) if len(labels) > 2 else None
    return _comparable(code) if code else ""


def _comparable(code: str) -> str:
    """``en-GB`` and ``en`` are one language; ``zh-Hans`` and ``zh-Hant`` are two."""
    return code if code.startswith("zh-") else base_language(code)


def _relation(context: str, language: str, page_language: str) -> list[str]:
    if not page_language:
        return []
    same = _comparable(language) == page_language
    return [f"{context}:~lang={'same' if same else 'other'}"]
