package lsp

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Server is one language server of the table: the command that starts it
// (speaking LSP over stdin and stdout) and the file extensions it serves.
// The JSON shape is Claude Code's lspServers entry, plus install.
type Server struct {
	// Name names the server in messages ("gopls").
	Name string `json:"-"`
	// Command is the program, looked up on PATH; Args its arguments.
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	// Alternatives are other commands (with their arguments) tried, in
	// order, when Command is not installed: basedpyright for pyright.
	Alternatives [][]string `json:"alternatives,omitempty"`
	// ExtensionToLanguage maps a file extension (".go") to the LSP
	// language id sent with the file ("go").
	ExtensionToLanguage map[string]string `json:"extensionToLanguage"`
	// Env adds variables to the server's environment.
	Env map[string]string `json:"env,omitempty"`
	// InitializationOptions are sent in initialize as they are.
	InitializationOptions json.RawMessage `json:"initializationOptions,omitempty"`
	// Install says how to install the server, for the error a missing
	// server gives.
	Install string `json:"install,omitempty"`
}

// Defaults is the table used when none is configured: the servers people
// have for Go, TypeScript and JavaScript, Python, Rust and C/C++.
func Defaults() []Server {
	return []Server{
		{Name: "gopls", Command: "gopls", ExtensionToLanguage: map[string]string{".go": "go"},
			Install: "go install golang.org/x/tools/gopls@latest"},
		{Name: "typescript-language-server", Command: "typescript-language-server", Args: []string{"--stdio"},
			ExtensionToLanguage: map[string]string{".ts": "typescript", ".tsx": "typescriptreact", ".mts": "typescript", ".cts": "typescript",
				".js": "javascript", ".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript"},
			Install: "npm install -g typescript-language-server typescript"},
		{Name: "pyright", Command: "pyright-langserver", Args: []string{"--stdio"},
			Alternatives:        [][]string{{"basedpyright-langserver", "--stdio"}},
			ExtensionToLanguage: map[string]string{".py": "python", ".pyi": "python"},
			Install:             "npm install -g pyright (or pip install basedpyright)"},
		{Name: "rust-analyzer", Command: "rust-analyzer", ExtensionToLanguage: map[string]string{".rs": "rust"},
			Install: "rustup component add rust-analyzer"},
		{Name: "clangd", Command: "clangd", ExtensionToLanguage: map[string]string{".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp",
			".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".m": "objective-c", ".mm": "objective-cpp"},
			Install: "apt-get install clangd (or your system's package of LLVM's clangd)"},
	}
}

// ParseServers reads a table in Claude Code's lspServers shape: a JSON
// object from server name to {command, args, extensionToLanguage, env,
// initializationOptions, install}. what names the source for errors.
func ParseServers(what string, raw json.RawMessage) ([]Server, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: lspServers must be an object from server name to {command, args, extensionToLanguage}: %w", what, err)
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Server
	for _, n := range names {
		var s Server
		dec := json.NewDecoder(strings.NewReader(string(m[n])))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s: lspServers.%s: %w (keys: command, args, alternatives, extensionToLanguage, env, initializationOptions, install)", what, n, err)
		}
		s.Name = n
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("%s: lspServers.%s: %w", what, n, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func (s Server) check() error {
	if strings.TrimSpace(s.Command) == "" {
		return fmt.Errorf("command is empty; give the server's program, e.g. \"gopls\"")
	}
	if len(s.ExtensionToLanguage) == 0 {
		return fmt.Errorf("extensionToLanguage is empty; map each file extension to its language id, e.g. {\".go\": \"go\"}")
	}
	for ext := range s.ExtensionToLanguage {
		if !strings.HasPrefix(ext, ".") || strings.ContainsAny(ext, `/\`) {
			return fmt.Errorf("extension %q must start with a dot, e.g. \".go\"", ext)
		}
	}
	return nil
}

// Merge puts configured servers before the defaults: a configured server
// replaces a default of the same name and takes over the extensions it
// lists.
func Merge(configured, defaults []Server) []Server {
	out := append([]Server(nil), configured...)
	for _, d := range defaults {
		if slices.ContainsFunc(configured, func(c Server) bool { return c.Name == d.Name }) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// For returns the server of the table for path's extension (the first
// that lists it) and the language id it gives the file.
func For(table []Server, path string) (Server, string, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, s := range table {
		if lang, ok := s.ExtensionToLanguage[ext]; ok {
			return s, lang, true
		}
	}
	return Server{}, "", false
}

// Extensions returns every extension the table serves, sorted.
func Extensions(table []Server) []string {
	var out []string
	for _, s := range table {
		for ext := range s.ExtensionToLanguage {
			if !slices.Contains(out, ext) {
				out = append(out, ext)
			}
		}
	}
	sort.Strings(out)
	return out
}

// NotInstalledError is the error of a server whose program is not on PATH.
type NotInstalledError struct {
	Server   Server
	Ext      string
	Commands []string
}

func (e *NotInstalledError) Error() string {
	msg := fmt.Sprintf("the language server for %s files, %s, is not installed: %s not found on PATH", e.Ext, e.Server.Name, strings.Join(e.Commands, " nor "))
	if e.Server.Install != "" {
		msg += "; install it with `" + e.Server.Install + "`"
	}
	return msg + ", or name another server for " + e.Ext + " in lspServers of --config"
}

// argv returns the command line that starts s: Command with Args if it is
// installed, else the first installed alternative.
func (s Server) argv(ext string) ([]string, error) {
	cands := append([][]string{append([]string{s.Command}, s.Args...)}, s.Alternatives...)
	var tried []string
	for _, c := range cands {
		if len(c) == 0 {
			continue
		}
		if _, err := exec.LookPath(c[0]); err == nil {
			return c, nil
		}
		tried = append(tried, c[0])
	}
	return nil, &NotInstalledError{Server: s, Ext: ext, Commands: tried}
}
