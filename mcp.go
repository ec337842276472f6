package hands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/mcpclient"
	"github.com/hands-dev/hands/tool"
)

// MCPServer is another MCP server whose tools Hands offers as
// mcp__<server>__<tool>: a stdio server (Command, Args, Env) or an HTTP
// one (Type "http" or "sse", URL, Headers).
type MCPServer = mcpclient.Server

// MCPServerStatus is one server's state, as `hands doctor` shows it.
type MCPServerStatus = mcpclient.Status

// ParseMCPServers parses an "mcpServers" object in Claude Code's shape
// (server name → {command, args, env} or {type, url, headers}), expanding
// ${VAR} and ${VAR:-default} from the environment; source names the file
// in errors.
func ParseMCPServers(source string, raw json.RawMessage) ([]MCPServer, error) {
	return mcpclient.ParseServers(source, raw, os.LookupEnv)
}

// mcpServers gathers the configured servers: the user's ~/.claude.json
// (its mcpServers, then its entry for the project) and the project's
// .mcp.json when ProjectSettings is set (and StrictMCPConfig is not), then MCPConfigFiles, then
// MCPServers; a later entry of the same name wins. Servers of the
// project's .mcp.json start only when approved as Claude Code approves
// them (enableAllProjectMcpServers, enabledMcpjsonServers); they are
// listed as not approved otherwise.
func mcpServers(opts Options, project string) (servers []MCPServer, notApproved []MCPServer, err error) {
	var lists [][]MCPServer
	if opts.ProjectSettings && !opts.StrictMCPConfig {
		home, _ := os.UserHomeDir()
		if home != "" {
			user, err := mcpclient.LoadFile(filepath.Join(home, ".claude.json"), project, os.LookupEnv)
			if err != nil {
				return nil, nil, err
			}
			lists = append(lists, user)
		}
		proj, err := mcpclient.LoadFile(filepath.Join(project, ".mcp.json"), "", os.LookupEnv)
		if err != nil {
			return nil, nil, err
		}
		if len(proj) > 0 {
			ap := approvals(opts, project, home)
			var ok []MCPServer
			for _, s := range proj {
				if ap.approved(s.Name) {
					ok = append(ok, s)
				} else {
					notApproved = append(notApproved, s)
				}
			}
			lists = append(lists, ok)
		}
	}
	for _, f := range opts.MCPConfigFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("MCP config: %w", err)
		}
		var doc struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		if err := json.Unmarshal(data, &doc); err != nil || doc.MCPServers == nil {
			return nil, nil, fmt.Errorf("MCP config %s: the file must be a JSON object with an \"mcpServers\" object (Claude Code's .mcp.json shape): %v", f, orMissing(err))
		}
		l, err := ParseMCPServers(f, doc.MCPServers)
		if err != nil {
			return nil, nil, err
		}
		lists = append(lists, l)
	}
	lists = append(lists, opts.MCPServers)
	servers, err = mcpclient.Merge(lists...)
	return servers, notApproved, err
}

func orMissing(err error) any {
	if err == nil {
		return "it has none"
	}
	return err
}

// mcpApproval is what Claude Code's settings say of the project's
// .mcp.json servers.
type mcpApproval struct {
	all      bool
	enabled  []string
	disabled []string
}

func (a mcpApproval) approved(name string) bool {
	if slices.Contains(a.disabled, name) {
		return false
	}
	return a.all || slices.Contains(a.enabled, name)
}

// approvals reads enableAllProjectMcpServers, enabledMcpjsonServers and
// disabledMcpjsonServers from the settings files (--settings, the
// project's .claude/settings*.json, the user's ~/.claude/settings.json)
// and the project's entry in ~/.claude.json, where Claude Code records
// the user's answers.
func approvals(opts Options, project, home string) mcpApproval {
	files := append([]string(nil), opts.Settings...)
	files = append(files, filepath.Join(project, ".claude", "settings.local.json"), filepath.Join(project, ".claude", "settings.json"))
	if home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	type keys struct {
		All      bool     `json:"enableAllProjectMcpServers"`
		Enabled  []string `json:"enabledMcpjsonServers"`
		Disabled []string `json:"disabledMcpjsonServers"`
	}
	var a mcpApproval
	add := func(k keys) {
		a.all = a.all || k.All
		a.enabled = append(a.enabled, k.Enabled...)
		a.disabled = append(a.disabled, k.Disabled...)
	}
	for _, f := range files {
		var k keys
		if data, err := os.ReadFile(f); err == nil && json.Unmarshal(data, &k) == nil {
			add(k)
		}
	}
	if home != "" {
		var doc struct {
			Projects map[string]keys `json:"projects"`
		}
		if data, err := os.ReadFile(filepath.Join(home, ".claude.json")); err == nil && json.Unmarshal(data, &doc) == nil {
			add(doc.Projects[project])
		}
	}
	return a
}

// gateway is the runtime's connections to other MCP servers.
type gateway struct {
	mgr         *mcpclient.Manager
	notApproved []MCPServer

	mu        sync.Mutex
	listeners []func()
}

// startMCP connects the configured servers and offers their tools in reg.
func (r *Runtime) startMCP(servers, notApproved []MCPServer) {
	g := &gateway{notApproved: notApproved}
	r.mcp = g
	if len(servers) == 0 {
		return
	}
	g.mgr = mcpclient.Start(context.Background(), servers, mcpclient.Options{
		ConnectTimeout: r.opts.MCPConnectTimeout,
		CallTimeout:    r.opts.MCPToolTimeout,
		Logger:         r.log,
		ClientName:     "hands",
		ClientVersion:  Version,
		Publish: func(_ string, remove []string, add []tool.Tool) error {
			for _, t := range add {
				if !strings.HasPrefix(t.Info().Name, "mcp__") {
					return fmt.Errorf("tool %s is not an mcp__ tool", t.Info().Name)
				}
			}
			return r.reg.Replace(remove, add)
		},
		Changed: g.changed,
	})
}

func (g *gateway) changed() {
	g.mu.Lock()
	ls := slices.Clone(g.listeners)
	g.mu.Unlock()
	for _, f := range ls {
		f()
	}
}

func (g *gateway) close() error {
	if g == nil || g.mgr == nil {
		return nil
	}
	return g.mgr.Close()
}

// OnToolsChanged registers f to be called whenever the set of tools
// changes: another MCP server connected, reconnected or sent
// notifications/tools/list_changed. The MCP server uses it to update its
// clients' tool lists.
func (r *Runtime) OnToolsChanged(f func()) {
	r.mcp.mu.Lock()
	r.mcp.listeners = append(r.mcp.listeners, f)
	r.mcp.mu.Unlock()
}

// MCPServers reports every configured MCP server: its state (connected,
// failed, disconnected, or not approved for a project server nobody
// approved), its tool count and its last error.
func (r *Runtime) MCPServers() []MCPServerStatus {
	var out []MCPServerStatus
	if r.mcp.mgr != nil {
		out = r.mcp.mgr.Status()
	}
	for _, s := range r.mcp.notApproved {
		out = append(out, MCPServerStatus{Name: s.Name, Type: s.Type, Source: s.Source, State: "not approved",
			Err: "a project server starts once approved: add it to enabledMcpjsonServers (or set enableAllProjectMcpServers) in .claude/settings.local.json"})
	}
	return out
}
