"""Completion through `library lsp` (the Library example host: its intents, entities and their values)."""
import os
import pathlib
import time

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBRARY = os.environ.get("LIBRARY_BINARY", str(ROOT / ".build" / "debug" / "library"))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[LIBRARY, "lsp"]))
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri())
    )
    assert result.capabilities.completion_provider is not None
    yield
    await lsp_client.shutdown_session()


async def complete(client, tmp_path, text, name="c.auto"):
    """The offers at the end of `text`, opened as a document."""
    uri = (tmp_path / name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="auto", version=1, text=text))
    )
    lines = text.split("\n")
    position = types.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
    return await offers(client, uri, position), position


async def offers(client, uri, position):
    """The offers at `position` in the open document `uri`."""
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )
    items = result.items if isinstance(result, types.CompletionList) else result
    return {item.label: item for item in items}


async def test_properties_after_where(client, tmp_path):
    items, position = await complete(client, tmp_path, 'show "é"\nfind books where ')
    assert "author" in items, sorted(items)
    author = items["author"]
    assert author.kind == types.CompletionItemKind.Property
    assert author.detail
    # It replaces nothing yet: it goes at the cursor.
    assert author.text_edit.range.start == position and author.text_edit.range.end == position


async def test_an_intent_name_replaces_what_is_typed(client, tmp_path):
    items, position = await complete(client, tmp_path, "sh", name="intent.auto")
    assert "show" in items, sorted(items)
    edit = items["show"].text_edit
    assert edit.range.start.character == 0 and edit.range.end == position
    assert items["show"].kind == types.CompletionItemKind.Function


async def test_entity_titles_come_from_the_hosts_query(client, tmp_path):
    # The host is asked under a 100 ms budget, and one slower than that offers nothing that time (HostValues): on a
    # loaded machine the debug host's first queries can miss it, so the request is made again until values come,
    # within a generous deadline.
    items, position = await complete(client, tmp_path, 'open book "', name="values.auto")
    deadline = time.monotonic() + 60
    values = [item for item in items.values() if item.kind == types.CompletionItemKind.Value]
    while not values and time.monotonic() < deadline:
        items = await offers(client, (tmp_path / "values.auto").as_uri(), position)
        values = [item for item in items.values() if item.kind == types.CompletionItemKind.Value]
    assert values, sorted(items)
