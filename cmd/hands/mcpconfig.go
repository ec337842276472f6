package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/hands-dev/hands"
)

// mcpOptions adds the other MCP servers to o: mcpServers of --config (raw,
// Claude Code's shape), the --mcp-config files, --strict-mcp-config, and
// MCP_TIMEOUT (milliseconds, as Claude Code reads it) for starting each.
func (c *common) mcpOptions(o *hands.Options, raw json.RawMessage) error {
	if raw != nil {
		servers, err := hands.ParseMCPServers("--config "+c.config, raw)
		if err != nil {
			return err
		}
		o.MCPServers = servers
	}
	o.MCPConfigFiles = append(o.MCPConfigFiles, c.mcpConfig...)
	o.StrictMCPConfig = c.strictMCP
	if v := os.Getenv("MCP_TIMEOUT"); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 {
			return fmt.Errorf("MCP_TIMEOUT %q: give a positive number of milliseconds, e.g. 30000", v)
		}
		o.MCPConnectTimeout = time.Duration(ms) * time.Millisecond
	}
	return nil
}

// printMCPServers is the doctor's section on other MCP servers.
func printMCPServers(w io.Writer, rt *hands.Runtime) {
	servers := rt.MCPServers()
	if len(servers) == 0 {
		fmt.Fprintln(w, "MCP servers: none configured (.mcp.json, ~/.claude.json, --mcp-config, mcpServers in --config)")
		return
	}
	fmt.Fprintln(w, "MCP servers:")
	for _, s := range servers {
		fmt.Fprintf(w, "  %s (%s, from %s): %s, %d tools", s.Name, s.Type, s.Source, s.State, s.Tools)
		if s.Err != "" {
			fmt.Fprintf(w, ": %s", s.Err)
		}
		fmt.Fprintln(w)
		for _, sk := range s.Skipped {
			fmt.Fprintf(w, "    not offered: %s\n", sk)
		}
	}
}
