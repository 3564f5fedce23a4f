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
