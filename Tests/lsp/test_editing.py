"""References, rename, signatures, highlighting, quick fixes and snippets through `library lsp`."""
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBRARY = os.environ.get("LIBRARY_BINARY", str(ROOT / ".build" / "debug" / "library"))

SCRIPT = """set total = 0
shortcut "pages left" (book: Book) {
  set total = book.pages
  return total
}
add book "Circe" -> added
set total = total + 1
show pages left added
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[LIBRARY, "lsp"]))
async def client(lsp_client: LanguageClient):
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(snippet_support=True)
            )
        )
    )
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities, root_uri=ROOT.as_uri()))
    assert result.capabilities.references_provider and result.capabilities.rename_provider
    assert result.capabilities.semantic_tokens_provider is not None
    yield
    await lsp_client.shutdown_session()


def open_text(client, tmp_path, text, name="edit.auto"):
    uri = (tmp_path / name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="auto", version=1, text=text))
    )
    return uri


def at(uri, line, character):
    return dict(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character))


def places(locations):
    return [(location.range.start.line, location.range.start.character) for location in locations]


async def test_references_are_one_variable_per_body(client, tmp_path):
    uri = open_text(client, tmp_path, SCRIPT)
    # `total` on the line after `-> added`: the script's, not the shortcut's own.
    found = await client.text_document_references_async(
        types.ReferenceParams(**at(uri, 6, 13), context=types.ReferenceContext(include_declaration=True))
    )
    assert places(found) == [(0, 4), (6, 4), (6, 12)]
    without = await client.text_document_references_async(
        types.ReferenceParams(**at(uri, 6, 13), context=types.ReferenceContext(include_declaration=False))
    )
    assert places(without) == [(6, 4), (6, 12)]
    inside = await client.text_document_references_async(
        types.ReferenceParams(**at(uri, 3, 10), context=types.ReferenceContext(include_declaration=True))
    )
    assert places(inside) == [(2, 6), (3, 9)]


async def test_rename_a_variable_and_a_shortcut(client, tmp_path):
    uri = open_text(client, tmp_path, SCRIPT)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(**at(uri, 7, 7)))
    assert prepared.placeholder == "pages left"
    assert prepared.range == types.Range(start=types.Position(line=7, character=5), end=types.Position(line=7, character=15))
    edit = await client.text_document_rename_async(types.RenameParams(**at(uri, 7, 12), new_name="pages to go"))
    edits = sorted((e.range.start.line, e.range.start.character, e.range.end.character, e.new_text) for e in edit.changes[uri])
    # Inside the declaration's quotes, and the call's two words.
    assert edits == [(1, 10, 20, "pages to go"), (7, 5, 15, "pages to go")]
    edit = await client.text_document_rename_async(types.RenameParams(**at(uri, 5, 22), new_name="circe"))
    assert sorted((e.range.start.line, e.range.start.character) for e in edit.changes[uri]) == [(5, 20), (7, 16)]


async def test_a_rename_that_would_change_the_meaning_is_refused(client, tmp_path):
    uri = open_text(client, tmp_path, SCRIPT)
    with pytest.raises(Exception, match="would change what the script means"):
        await client.text_document_rename_async(types.RenameParams(**at(uri, 5, 22), new_name="total"))
    with pytest.raises(Exception, match="can't be a name"):
        await client.text_document_rename_async(types.RenameParams(**at(uri, 5, 22), new_name="two words"))
    # `show` is the host's intent: nothing of the script's to rename.
    assert await client.text_document_prepare_rename_async(types.PrepareRenameParams(**at(uri, 7, 1))) is None


async def test_hover_on_a_variable_gives_its_type(client, tmp_path):
    uri = open_text(client, tmp_path, SCRIPT)
    hover = await client.text_document_hover_async(types.HoverParams(**at(uri, 7, 18)))
    assert hover.contents.value.startswith("added: Book"), hover.contents.value
    assert "line 6" in hover.contents.value


async def test_signature_help_marks_the_parameter_being_given(client, tmp_path):
    uri = open_text(client, tmp_path, 'add book "Circe" shelf: ')
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(**at(uri, 0, 24)))
    signature = help.signatures[help.active_signature]
    assert signature.label.startswith("add book title: Text author: Text"), signature.label
    start, end = signature.parameters[help.active_parameter].label
    assert signature.label[start:end].startswith("shelf: Shelf"), signature.label[start:end]
    uri = open_text(client, tmp_path, 'add book "Ci', name="input.auto")
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(**at(uri, 0, 12)))
    assert help.active_parameter == 0
    uri = open_text(client, tmp_path, "set x = 1\n", name="none.auto")
    assert await client.text_document_signature_help_async(types.SignatureHelpParams(**at(uri, 0, 9))) is None


async def test_highlighting_tells_a_keyword_from_a_name(client, tmp_path):
    text = "# how many\nset limit = 2\nfind books sort by title limit limit\n"
    uri = open_text(client, tmp_path, text)
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    names = ["keyword", "variable", "function", "parameter", "property", "string", "number", "comment", "operator", "type", "enumMember"]
    lines = text.split("\n")
    decoded, line, character = [], 0, 0
    data = tokens.data
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[index:index + 5]
        line += delta_line
        character = delta_start if delta_line else character + delta_start
        decoded.append((lines[line][character:character + length], names[kind], modifiers))
    assert decoded[0] == ("# how many", "comment", 0)
    assert ("set", "keyword", 0) in decoded and ("2", "number", 0) in decoded
    assert ("limit", "variable", 1) in decoded, decoded
    third = [entry for entry in decoded if entry[0] in ("find", "sort", "by", "limit")][-5:]
    assert third == [("find", "keyword", 0), ("sort", "keyword", 0), ("by", "keyword", 0), ("limit", "keyword", 0), ("limit", "variable", 0)], decoded


async def test_quick_fixes_for_a_misspelt_intent_and_a_missing_set(client, tmp_path):
    uri = open_text(client, tmp_path, 'ad book "Circe"\nx = 5\n')

    async def fixes(line):
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=1)),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        return [(a.title, [(e.range.start.character, e.range.end.character, e.new_text) for e in a.edit.changes[uri]]) for a in actions]

    assert await fixes(0) == [("Change 'ad book' to 'add book'", [(0, 7, "add book")])]
    assert await fixes(1) == [("Insert 'set '", [(0, 0, "set ")])]


async def test_an_intents_name_completes_with_its_required_labels_as_a_snippet(client, tmp_path):
    uri = open_text(client, tmp_path, "add bo")
    result = await client.text_document_completion_async(types.CompletionParams(**at(uri, 0, 6)))
    items = {item.label: item for item in (result.items if isinstance(result, types.CompletionList) else result)}
    assert items["add book"].text_edit.new_text == "add book ${1:title}"
    assert items["add book"].insert_text_format == types.InsertTextFormat.Snippet


async def test_formatting_lays_the_document_out_as_auto_format_does(client, tmp_path):
    uri = open_text(client, tmp_path, "if  true {\nshow   1\n}\n\n\n\nshow 2   # two\n")
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert len(edits) == 1 and edits[0].range.start == types.Position(line=0, character=0)
    assert edits[0].range.end == types.Position(line=7, character=0)
    # The comment keeps the column it is written at: more than two spaces past the code.
    assert edits[0].new_text == "if true {\n  show 1\n}\n\nshow 2   # two\n"
    formatted = open_text(client, tmp_path, edits[0].new_text, name="formatted.auto")
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=formatted), options=types.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert again is not None and len(again) == 0
    broken = open_text(client, tmp_path, "show (1\n", name="broken.auto")
    with pytest.raises(Exception, match="can't be formatted until its syntax is right"):
        await client.text_document_formatting_async(
            types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=broken), options=types.FormattingOptions(tab_size=2, insert_spaces=True))
        )
