"""Hover and the document outline through `auto lsp` and `library lsp`."""
import os
import pathlib

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBRARY = os.environ.get("LIBRARY_BINARY", str(ROOT / ".build" / "debug" / "library"))

SCRIPT = """set total = 0
shortcut "pages left" (book: Book) {
  return book.pages
}
automation "morning digest" every day at 07:30 catch up {
  show total
}
add book "Circe" -> added
show added.title
show pages left added
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[LIBRARY, "lsp"]))
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri())
    )
    assert result.capabilities.hover_provider and result.capabilities.document_symbol_provider
    yield
    await lsp_client.shutdown_session()


def open_script(client, tmp_path):
    uri = (tmp_path / "outline.auto").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="auto", version=1, text=SCRIPT))
    )
    return uri


async def test_the_outline_has_shortcuts_automations_and_variables(client, tmp_path):
    uri = open_script(client, tmp_path)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [(s.name, s.kind) for s in symbols] == [
        ("total", types.SymbolKind.Variable),
        ("pages left", types.SymbolKind.Function),
        ("morning digest", types.SymbolKind.Event),
        ("added", types.SymbolKind.Variable),
    ]
    digest = symbols[2]
    assert digest.detail == "every day at 07:30 catch up"
    assert digest.range.start.line == 4 and digest.range.end.line == 6
    assert digest.selection_range.start == types.Position(line=4, character=11)


async def test_hover_on_an_intents_name_describes_it(client, tmp_path):
    uri = open_script(client, tmp_path)
    # On `book` of `add book "Circe"`, the second word of the intent's name.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=7, character=5))
    )
    assert hover is not None
    assert "Adds a book to the library" in hover.contents.value
    assert hover.range == types.Range(start=types.Position(line=7, character=0), end=types.Position(line=7, character=8))
    # On a value, nothing.
    nothing = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=7, character=11))
    )
    assert nothing is None


async def test_hover_on_an_automation_gives_its_next_three_fires(client, tmp_path):
    uri = open_script(client, tmp_path)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=30))
    )
    assert hover is not None
    text = hover.contents.value
    assert text.startswith('automation "morning digest" every day at 07:30'), text
    fires = [line.strip() for line in text.splitlines() if line.startswith("  ")]
    assert len(fires) == 3 and all("T07:30:00" in fire for fire in fires), text
    assert hover.range.start == types.Position(line=4, character=0)


async def test_definition_of_a_variable_and_of_a_shortcut(client, tmp_path):
    uri = open_script(client, tmp_path)

    async def definition(line, character):
        return await client.text_document_definition_async(
            types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character))
        )

    # `added` in `show added.title`: where `-> added` sets it.
    added = await definition(8, 6)
    assert added.uri == uri and added.range.start == types.Position(line=7, character=20), added
    # `left` in `show pages left added`: the shortcut's declaration.
    shortcut = await definition(9, 12)
    assert shortcut.range.start.line == 1, shortcut
    # `show` is an intent, declared nowhere in the script.
    assert await definition(9, 1) is None
