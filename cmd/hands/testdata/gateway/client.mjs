// A gateway client for the tests: the official MCP TypeScript SDK's
// client starts `hands serve` (argv after the script) over stdio, lists
// its tools, calls remote tools through it, and waits for
// notifications/tools/list_changed after a remote server adds a tool. It
// prints one JSON object of what it saw. The SDK is imported from
// $MCP_SDK_DIR (the package's dist/esm directory).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const sdk = process.env.MCP_SDK_DIR;
const load = (sub) => import(pathToFileURL(path.join(sdk, sub)).href);
const { Client } = await load('client/index.js');
const { StdioClientTransport } = await load('client/stdio.js');
const { ToolListChangedNotificationSchema } = await load('types.js');

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'gateway-test', version: '1.0.0' });
let changed;
const listChanged = new Promise((resolve) => { changed = resolve; });
client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));

const out = {};
const names = async () => (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('mcp__'));
const tools = (await client.listTools()).tools;
out.tools = await names();
const echo = tools.find((t) => t.name === 'mcp__fake__echo');
out.echoAnnotations = echo?.annotations;
out.echoDescription = echo?.description;
out.echo = await client.callTool({ name: 'mcp__fake__echo', arguments: { text: 'through the gateway' } });
out.image = await client.callTool({ name: 'mcp__fake__image', arguments: {} });
out.structured = await client.callTool({ name: 'mcp__fake__structured', arguments: { name: 'Oslo' } });
out.denied = await client.callTool({ name: 'mcp__fake__fail', arguments: {} });
out.http = await client.callTool({ name: 'mcp__web__echo', arguments: { text: 'via http' } });
await client.callTool({ name: 'mcp__fake__add_tool', arguments: {} });
await listChanged;
out.toolsAfter = await names();
out.added = await client.callTool({ name: 'mcp__fake__added', arguments: {} });
console.log(JSON.stringify(out));
await client.close();
