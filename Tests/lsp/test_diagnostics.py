"""`auto lsp` driven end to end by a real LSP client (pytest-lsp) over standard input and output.

AUTO_BINARY names the `auto` to test (the Swift test that runs this suite sets it); by default the debug build.
"""
import json
import os
import pathlib
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
AUTO = os.environ.get("AUTO_BINARY", str(ROOT / ".build" / "debug" / "auto"))

# Every example and stdlib script, and broken ones: an error with a hint, a warning, text outside ASCII before the
# error (UTF-16 positions differ from bytes there).
SCRIPTS = sorted(p for p in list((ROOT / "examples").rglob("*.auto")) + list((ROOT / "stdlib").rglob("*.auto")))
BROKEN = {
    "misspelt.auto": 'shwo "hello"\n',
    "type.auto": 'set x = 1 + "a"\nshow x\n',
    "unicode.auto": 'set x = "😀 déjà"; shwo x\nx = 5\n',
    "unfinished.auto": 'automation "a" every day at 25:00 {\n  show 1\n',
}


def check_json(path):
    """What `auto check --json` says of the script: its own problems, in its order."""
    result = subprocess.run([AUTO, "check", "--json", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode in (0, 2), result.stderr
    return [d for d in json.loads(result.stdout) if d["file"] == str(path)]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[AUTO, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def diagnostics_of(client, path, text, version=1):
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="auto", version=version, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


def expected(found):
    """An LSP diagnostic as `check --json` says it: the message with its hints on lines of their own."""
    return [
        (
            (d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"], d["range"]["end"]["character"]),
            types.DiagnosticSeverity.Error if d["severity"] == "error" else types.DiagnosticSeverity.Warning,
            d["message"] + "".join("\nhint: " + h for h in d["hints"]),
        )
        for d in found
    ]


def shown(diagnostics):
    return [
        ((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.severity, d.message)
        for d in diagnostics
    ]


async def test_every_example_and_stdlib_script_has_the_diagnostics_of_check(client):
    assert len(SCRIPTS) > 30
    for path in SCRIPTS:
        received = await diagnostics_of(client, path, path.read_text())
        assert shown(received) == expected(check_json(path)), path


async def test_broken_scripts_have_the_diagnostics_of_check(client, tmp_path):
    for name, text in BROKEN.items():
        path = tmp_path / name
        path.write_text(text)
        want = expected(check_json(path))
        assert want, f"{name} should have a problem"
        assert shown(await diagnostics_of(client, path, text)) == want, name


async def test_an_edit_is_checked_again_and_closing_clears(client, tmp_path):
    path = tmp_path / "edit.auto"
    uri = path.as_uri()
    assert len(await diagnostics_of(client, path, 'show "é"\nshwo 1\n')) == 1
    # Replace `shwo` (line 1, characters 0–4) with `show`: an incremental change.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=4)),
                    text="show",
                )
            ],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []
