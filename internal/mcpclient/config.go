package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Server is one other MCP server as its configuration names it, with
// ${VAR} references expanded.
type Server struct {
	// Name is the server's name in its configuration (the key under
	// mcpServers); tools are offered as mcp__<Name>__<tool>, with
	// characters other than letters, digits, '_' and '-' replaced by '_'.
	Name string `json:"name"`
	// Source says where the entry came from (a file path, or "--config"),
	// for messages.
	Source string `json:"source,omitempty"`
	// Type is "stdio" (the default when Command is set), "http"
	// (Streamable HTTP) or "sse" (the older HTTP+SSE transport).
	Type string `json:"type,omitempty"`
	// Command, Args and Env start a stdio server; Env adds to Hands's
	// environment.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// URL and Headers reach an HTTP server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// entry is one mcpServers entry in Claude Code's shape.
type entry struct {
	Type    *string           `json:"type"`
	Command *string           `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     *string           `json:"url"`
	Headers map[string]string `json:"headers"`
}

// knownKeys are the keys of Claude Code's server entries Hands reads;
// unsupported lists those it knows but cannot honour.
var (
	knownKeys   = []string{"type", "command", "args", "env", "url", "headers"}
	unsupported = map[string]string{
		"headersHelper": "a headers helper command is not supported; put the headers in \"headers\" (with ${VAR} references)",
		"oauth":         "OAuth is not supported; give a token in \"headers\" (e.g. \"Authorization\": \"Bearer ${TOKEN}\")",
	}
)

// ParseServers parses an mcpServers object (server name → entry) in
// Claude Code's shape and expands ${VAR} and ${VAR:-default} in command,
// args, env, url and headers with getenv. source names the file (or flag)
// in errors, which name the server too.
func ParseServers(source string, raw json.RawMessage, getenv func(string) (string, bool)) ([]Server, error) {
	var byName map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byName); err != nil || byName == nil {
		return nil, fmt.Errorf("%s: mcpServers must be an object of server name → {command, args, env} or {type, url, headers}: %v", source, orNull(err))
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Server
	for _, name := range names {
		s, err := parseEntry(name, byName[name], getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: MCP server %q: %w", source, name, err)
		}
		s.Source = source
		out = append(out, s)
	}
	return out, nil
}

func orNull(err error) any {
	if err == nil {
		return "got null"
	}
	return err
}

func parseEntry(name string, raw json.RawMessage, getenv func(string) (string, bool)) (Server, error) {
	if Qualify(name) == "" {
		return Server{}, fmt.Errorf("the name has no letter or digit; name the server with letters, digits, '_' or '-'")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return Server{}, fmt.Errorf("the entry must be an object such as {\"command\": \"npx\", \"args\": [...]} or {\"type\": \"http\", \"url\": \"https://...\"}")
	}
	for k := range keys {
		if why, ok := unsupported[k]; ok {
			return Server{}, fmt.Errorf("%q: %s", k, why)
		}
		found := false
		for _, kk := range knownKeys {
			found = found || k == kk
		}
		if !found {
			return Server{}, fmt.Errorf("unknown key %q; an entry has %s", k, strings.Join(knownKeys, ", "))
		}
	}
	var e entry
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		return Server{}, fmt.Errorf("%v; command and url are strings, args a list of strings, env and headers objects of strings", err)
	}
	s := Server{Name: name, Args: e.Args, Env: e.Env, Headers: e.Headers}
	if e.Type != nil {
		s.Type = *e.Type
	}
	if e.Command != nil {
		s.Command = *e.Command
	}
	if e.URL != nil {
		s.URL = *e.URL
	}
	ex := expander{getenv: getenv}
	s.Command = ex.expand(s.Command)
	for i := range s.Args {
		s.Args[i] = ex.expand(s.Args[i])
	}
	for k, v := range s.Env {
		s.Env[k] = ex.expand(v)
	}
	s.URL = ex.expand(s.URL)
	for k, v := range s.Headers {
		s.Headers[k] = ex.expand(v)
	}
	if len(ex.missing) > 0 {
		sort.Strings(ex.missing)
		return Server{}, fmt.Errorf("environment variables not set: %s; set them or write ${VAR:-default}", strings.Join(ex.missing, ", "))
	}
	if s.Type == "" {
		s.Type = "stdio"
		if s.Command == "" && s.URL != "" {
			return Server{}, fmt.Errorf("an entry with a url needs \"type\": \"http\" (Streamable HTTP) or \"sse\"")
		}
	}
	switch s.Type {
	case "stdio":
		if s.Command == "" {
			return Server{}, fmt.Errorf("a stdio server needs a non-empty \"command\"")
		}
		if s.URL != "" || s.Headers != nil {
			return Server{}, fmt.Errorf("a stdio server takes command, args and env, not url or headers")
		}
	case "http", "sse":
		if s.URL == "" {
			return Server{}, fmt.Errorf("a %s server needs a \"url\"", s.Type)
		}
		if s.Command != "" || s.Args != nil || s.Env != nil {
			return Server{}, fmt.Errorf("a %s server takes url and headers, not command, args or env", s.Type)
		}
	default:
		return Server{}, fmt.Errorf("type %q is not supported; use \"stdio\", \"http\" or \"sse\"", s.Type)
	}
	return s, nil
}

// varRef is Claude Code's reference syntax: ${VAR} or ${VAR:-default}.
var varRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^}:]+)(?::-([^}]*))?\}`) })

type expander struct {
	getenv  func(string) (string, bool)
	missing []string
}

// expand replaces ${VAR} and ${VAR:-default} in s, recording variables
// that are unset and have no default.
func (x *expander) expand(s string) string {
	return varRef().ReplaceAllStringFunc(s, func(m string) string {
		sub := varRef().FindStringSubmatch(m)
		if v, ok := x.getenv(sub[1]); ok {
			return v
		}
		if strings.Contains(m, ":-") {
			return sub[2]
		}
		if !contains(x.missing, sub[1]) {
			x.missing = append(x.missing, sub[1])
		}
		return m
	})
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// LoadFile reads the servers of a file in Claude Code's shapes: a
// top-level "mcpServers" object (.mcp.json, ~/.claude.json, a settings
// file), and, when project is not empty, the "projects"[project]
// "mcpServers" of ~/.claude.json (Claude Code's local scope). A missing
// file has no servers.
func LoadFile(path, project string, getenv func(string) (string, bool)) ([]Server, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		MCPServers json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v (the file is a JSON object with an \"mcpServers\" object)", path, err)
	}
	var out []Server
	if doc.MCPServers != nil {
		if out, err = ParseServers(path, doc.MCPServers, getenv); err != nil {
			return nil, err
		}
	}
	if p, ok := doc.Projects[project]; ok && project != "" && p.MCPServers != nil {
		local, err := ParseServers(path+" (projects."+project+")", p.MCPServers, getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, local...)
	}
	return out, nil
}

// Merge combines server lists, earlier lists first: a later entry with the
// name of an earlier one replaces it (Claude Code's scopes: a local
// server overrides a project one, which overrides a user one, when the
// lists are given in that order reversed). Two different names that
// qualify to the same mcp__ prefix are an error.
func Merge(lists ...[]Server) ([]Server, error) {
	var out []Server
	index := map[string]int{}
	for _, l := range lists {
		for _, s := range l {
			if i, ok := index[s.Name]; ok {
				out[i] = s
				continue
			}
			index[s.Name] = len(out)
			out = append(out, s)
		}
	}
	byQ := map[string]Server{}
	for _, s := range out {
		q := Qualify(s.Name)
		if o, ok := byQ[q]; ok {
			return nil, fmt.Errorf("MCP servers %q (%s) and %q (%s) both give tools the prefix mcp__%s__; rename one", o.Name, o.Source, s.Name, s.Source, q)
		}
		byQ[q] = s
	}
	return out, nil
}

var notName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]`) })

// Qualify returns a name as it appears inside mcp__server__tool: every
// character other than a letter, digit, '_' or '-' replaced by '_' (as
// Claude Code does); "" when nothing but such characters is left.
func Qualify(name string) string {
	q := notName().ReplaceAllString(name, "_")
	if strings.Trim(q, "_-") == "" {
		return ""
	}
	return q
}
