#!/usr/bin/env bash
# Type-checks what `hands tools --format` prints, for every profile,
# against the official SDKs' request types: @anthropic-ai/sdk (Messages
# API tools), openai (Chat Completions tools) and @google/genai (a Tool of
# function declarations). Then checks that the check bites: Gemini
# schemas with lowercase JSON-schema types must be refused. Needs node and
# npm (versions pinned in package-lock.json); go test does not need it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd "$repo" && go build -o "$out/hands" ./cmd/hands)
mkdir -p "$out/root" gen bad
rm -f gen/*.ts bad/*.ts

# gen writes a TypeScript module declaring the definitions with the SDK's
# type: the JSON is an object literal, so every field and value is checked.
gen() { # profile format file
	local decl
	case "$2" in
	anthropic) decl='import type Anthropic from "@anthropic-ai/sdk";
export const tools: Anthropic.Messages.Tool[] =' ;;
	openai) decl='import type OpenAI from "openai";
export const tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] =' ;;
	gemini) decl='import type { Tool } from "@google/genai";
import type { Wire } from "../wire.js";
export const tools: Wire<Tool>[] = [' ;;
	esac
	{
		echo "$decl"
		"$out/hands" tools --root "$out/root" --profile "$1" --format "$2"
		[ "$2" = gemini ] && echo "]"
		echo ";"
	} > "$3"
}

profiles=(native claude gemini envelope taskdaemon)
for p in "${profiles[@]}"; do
	for f in anthropic openai gemini; do
		gen "$p" "$f" "gen/$p.$f.ts"
	done
done
echo "type-checking ${#profiles[@]} profiles × anthropic, openai, gemini against the SDKs' types:"
node -e 'const fs = require("fs"); for (const p of ["@anthropic-ai/sdk", "openai", "@google/genai", "typescript"]) console.log("  " + p + " " + JSON.parse(fs.readFileSync("node_modules/" + p + "/package.json")).version)'
npx --no-install tsc -p tsconfig.json
echo "  ok: no type errors"

# The check must refuse what Gemini's SDK refuses: lowercase types.
gen native gemini bad/native.gemini-lowercase.ts
sed -i -E 's/"type": "([A-Z]+)"/"type": "\L\1"/' bad/native.gemini-lowercase.ts
if npx --no-install tsc -p tsconfig.bad.json > "$out/bad.log" 2>&1; then
	echo "the check accepted lowercase Gemini types; it checks nothing" >&2
	exit 1
fi
echo "  ok: lowercase Gemini types are refused ($(grep -c 'error TS' "$out/bad.log") errors)"
