"""A page's main-text blocks, with and without its code samples and commands."""

from bilingual_spider.language.page_language import main_text_blocks

PAGE = b"""<html><body><nav><p>Home and the other chapters of the reference</p></nav>
<p>Pour installer le paquet, tapez la commande suivante dans un terminal.</p>
<pre>$ sudo apt-get install aptitude debian-reference-fr</pre>
<p>Le paquet <code>aptitude</code> propose une interface en mode texte.</p>
<table><tr><td>apt-file</td><td>dpkg-dev</td></tr></table></body></html>"""


def test_main_text_blocks_leave_out_code_samples_and_commands_when_asked():
    with_code, _ = main_text_blocks(PAGE)
    assert "$ sudo apt-get install aptitude debian-reference-fr" in with_code
    prose, truncated = main_text_blocks(PAGE, code=False)
    assert not truncated
    assert prose == [
        "Pour installer le paquet, tapez la commande suivante dans un terminal.",
        "Le paquet propose une interface en mode texte.",
        "apt-file",
        "dpkg-dev",
    ]


DOCBOOK = b"""<html><body class="no-sidebar"><div class="navheader"><table><tr>
<th>A.2. Zaveden\xc3\xad instala\xc4\x8dn\xc3\xadho programu</th></tr></table></div>
<div class="sect1"><h2>A.2. Booting the installer</h2><p>The installer starts from the image.</p>
</div><div class="legalnotice"><p>Tento dokument je \xc5\xa1\xc3\xad\xc5\x99en pod GPL.</p></div>
<div id="page-header">Apache HTTP Server</div><div role="navigation">Previous chapter</div>
<div class="navfooter"><table><tr><td>A.1. P\xc5\x99\xc3\xadprava</td></tr></table></div>
</body></html>"""


def test_prose_leaves_out_what_names_itself_navigation():
    # a DocBook page whose navigation is translated around an English body: not its prose
    main, _ = main_text_blocks(DOCBOOK)
    assert "A.2. Zavedení instalačního programu" in main  # the main text keeps it
    prose, _ = main_text_blocks(DOCBOOK, code=False, navigation=False)
    assert prose == ["A.2. Booting the installer", "The installer starts from the image."]
