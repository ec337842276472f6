#!/usr/bin/env node
// structured.mjs — what the model sees of a Hands result when Claude Code is
// the MCP client. Starts Claude Code (`claude -p`, from npm) with
// `--mcp-config` pointing at `hands serve` over stdio, against a local mock
// of the Anthropic Messages API (127.0.0.1 only) that asks for one call of
// each case and records the tool_result block Claude Code sends back: the
// text the model would read. Run once per --structured-content mode:
//
//   node bench/claudecode/structured.mjs HANDS_BIN [MODE...]   (default: auto metadata none)
//
// CLAUDE_BIN picks Claude Code (default /tmp/oracle/claude/node_modules/.bin/claude;
// install with: npm install --prefix /tmp/oracle/claude @anthropic-ai/claude-code@2.1.7).
// It prints, per mode and call, the first line of what the model got and
// whether that is the Hands text or JSON of the structured content.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const hands = process.argv[2];
if (!hands) { console.error('usage: structured.mjs HANDS_BIN [MODE...]'); process.exit(2); }
const modes = process.argv.length > 3 ? process.argv.slice(3) : ['auto', 'metadata', 'none'];
const claude = process.env.CLAUDE_BIN || '/tmp/oracle/claude/node_modules/.bin/claude';

async function runMode(mode) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hands-cc-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hands-cc-home-'));
  fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\nbeta\n');
  const calls = [
    ['mcp__hands__view', { path: path.join(root, 'a.txt') }],
    ['mcp__hands__bash', { command: 'echo from-the-shell' }],
    ['mcp__hands__glob', { pattern: '*.txt' }],
  ];
  const seen = [];
  const recorded = new Set();
  let next = 0;
  let done;
  const finished = new Promise((r) => { done = r; });
  const server = http.createServer(async (req, res) => {
    let data = '';
    for await (const d of req) data += d;
    let body = {};
    try { body = JSON.parse(data); } catch { /* not json */ }
    const url = req.url.split('?')[0];
    if (url.endsWith('/count_tokens')) { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"input_tokens":100}'); return; }
    const main = (body.tools ?? []).some((t) => t.name === 'mcp__hands__view');
    const last = (body.messages ?? []).at(-1);
    if (main && last?.role === 'user' && Array.isArray(last.content)) {
      for (const b of last.content) {
        const n = Number(String(b.tool_use_id ?? '').replace('toolu_h5_', ''));
        if (b.type === 'tool_result' && !recorded.has(n)) { recorded.add(n); seen.push({ tool: calls[n - 1]?.[0], content: b.content }); }
      }
    }
    let content = [{ type: 'text', text: 'ok' }], stop = 'end_turn';
    if (main && next < calls.length) {
      const [name, input] = calls[next++];
      content = [{ type: 'tool_use', id: `toolu_h5_${next}`, name, input }];
      stop = 'tool_use';
    } else if (main) {
      done();
    }
    const msg = { id: 'msg_h5', type: 'message', role: 'assistant', model: body.model ?? 'm', content, stop_reason: stop, stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } };
    if (!body.stream) { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(msg)); return; }
    const ev = [{ type: 'message_start', message: { ...msg, content: [], stop_reason: null } }];
    content.forEach((b, i) => {
      if (b.type === 'text') {
        ev.push({ type: 'content_block_start', index: i, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: i, delta: { type: 'text_delta', text: b.text } });
      } else {
        ev.push({ type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }, { type: 'content_block_delta', index: i, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
      }
      ev.push({ type: 'content_block_stop', index: i });
    });
    ev.push({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }, { type: 'message_stop' });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const e of ev) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const mcp = { mcpServers: { hands: { type: 'stdio', command: '/bin/sh', args: ['-c', `tee -a ${process.env.H5_LOG ?? '/dev/null'} | exec "$0" serve --root "$1" --structured-content "$2"`, hands, root, mode] } } };
  const env = { PATH: process.env.PATH, HOME: home, SHELL: '/bin/bash', LANG: 'C.UTF-8', TERM: 'dumb', TMPDIR: '/tmp',
    DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ANTHROPIC_API_KEY: 'sk-ant-mock-not-a-key', ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.address().port}`, IS_SANDBOX: '1',
    ENABLE_TOOL_SEARCH: 'false', MCP_TIMEOUT: '30000' };
  const child = spawn(claude, ['-p', 'Run the calls.', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions',
    '--model', 'claude-sonnet-4-5', '--max-turns', '20', '--mcp-config', JSON.stringify(mcp), '--strict-mcp-config'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  child.stdout.on('data', () => {});
  const exited = new Promise((r) => child.on('exit', r));
  const how = await Promise.race([finished.then(() => 'done'), exited.then((c) => `exit ${c}`), new Promise((r) => setTimeout(() => r('timeout'), 180000))]);
  if (how !== 'done') console.error(`mode ${mode}: claude ended early (${how}) ${err.slice(-2000)}`);
  child.kill('SIGTERM');
  server.close();
  server.closeAllConnections?.();
  for (const s of seen) {
    const blocks = typeof s.content === 'string' ? [{ type: 'text', text: s.content }] : s.content ?? [];
    const text = blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    const kind = text.trimStart().startsWith('{') ? 'structured JSON' : 'Hands text';
    console.log(`${mode.padEnd(9)} ${String(s.tool).padEnd(18)} ${kind.padEnd(16)} ${JSON.stringify(text.slice(0, 140))}`);
  }
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
}

for (const m of modes) await runMode(m);
