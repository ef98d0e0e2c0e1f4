"""`kept lsp` driven by pytest-lsp (PyPI), once with Neovim's client capabilities and once with
VS Code's, as pytest-lsp records them: diagnostics, completion, hover, definition, semantic
tokens, a quick fix, the code lens and its edit (a workspace/applyEdit the client applies),
cancellation, and shutdown and exit (pytest-lsp checks the server's answers against the
capabilities the client sent). docs/EDITORS.md.

Run: KEPT_BIN=.build/debug/kept python3 -m pytest -q Tests/lsp/test_pytest_lsp.py
"""

import asyncio
import os
import sys
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

KEPT = os.path.abspath(os.environ.get("KEPT_BIN", ".build/debug/kept"))

SCRIPT = """\
> add Pay rent @tomorrow #bills
Added 1 · Pay rent · Tomorrow · #bills

> filter bills = #bills
Saved filter bills · #bills

> lsit

> count filter:bills
1 of 1

> repeat every last weekday
Every month on the last weekday

> complete 1
Completed 1 · Pay rent
"""


@pytest_lsp.fixture(
    params=["neovim", "visual-studio-code"],
    config=ClientServerConfig(server_command=[KEPT, "lsp"]),
)
async def client(request, lsp_client: LanguageClient):
    lsp_client.applied = []

    @lsp_client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams):
        lsp_client.applied.append(params.edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities(request.param)))
    yield
    await lsp_client.shutdown_session()


def pos(line, ch):
    return types.Position(line=line, character=ch)


async def opened(client):
    folder = tempfile.mkdtemp(prefix="kept-pytest-lsp-")
    path = os.path.join(folder, "bills.kept")
    with open(path, "w") as f:
        f.write(SCRIPT)
    uri = "file://" + path
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="kept", version=1, text=SCRIPT)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


async def test_diagnostics_and_quick_fix(client: LanguageClient):
    uri = await opened(client)
    diags = client.diagnostics[uri]
    e = [d for d in diags if d.code == "E0101"]
    assert e and e[0].range.start == pos(6, 2) and "unknown command 'lsit'" in e[0].message
    stale = [d for d in diags if d.source == "kept test" and d.range.start.line == 11]
    assert stale and "+RRULE FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" in stale[0].message
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=e[0].range,
        context=types.CodeActionContext(diagnostics=[e[0]])))
    fix = [a for a in actions if a.title == "did you mean 'list'?"]
    assert fix and fix[0].edit.changes[uri][0].new_text == "list"


async def test_completion_hover_definition(client: LanguageClient):
    uri = await opened(client)
    doc = types.TextDocumentIdentifier(uri=uri)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=pos(16, 0), end=pos(16, 0)),
                                                                text="\n> add x @tom\n")]))
    r = await client.text_document_completion_async(types.CompletionParams(text_document=doc, position=pos(17, 12)))
    items = r.items if hasattr(r, "items") else r
    assert "@tomorrow" in [i.label for i in items]
    h = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos(0, 17)))
    assert "Tue Jun 16, 2026" in h.contents.value
    h = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos(11, 12)))
    assert "RRULE FREQ=MONTHLY" in h.contents.value and "Fri Oct 30, 2026" in h.contents.value
    d = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos(8, 12)))
    assert d.range.start.line == 3


async def test_semantic_tokens(client: LanguageClient):
    uri = await opened(client)
    r = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    # The first token: `add` at 0:2, a keyword (type 0 of the legend).
    assert list(r.data[:5]) == [0, 2, 3, 0, 0]


async def test_code_lens_and_its_edit(client: LanguageClient):
    uri = await opened(client)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    update = [l for l in lenses if l.command.title == "Update expected output" and l.range.start.line == 11]
    assert update
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=update[0].command.command, arguments=update[0].command.arguments))
    for _ in range(100):
        if client.applied:
            break
        await asyncio.sleep(0.05)
    edit = client.applied[0].changes[uri][0]
    assert edit.new_text.startswith("Every month on the last weekday\nRRULE FREQ=MONTHLY")


async def test_cancellation(client: LanguageClient):
    uri = await opened(client)
    # A request and its cancel sent together: the cancel is read before the request runs.
    fut = client.protocol.send_request_async(types.TEXT_DOCUMENT_HOVER, types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(0, 17)))
    request_id = max(client.protocol._request_futures.keys(), default=None)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=request_id))
    try:
        await fut
        # The server may have answered before it read the cancel; then nothing is cancelled.
    except Exception as e:
        assert "-32800" in str(e) or "cancel" in str(e).lower()
