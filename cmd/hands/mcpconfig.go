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
// MCP_TIMEOUT and MCP_TOOL_TIMEOUT (milliseconds, as Claude Code reads
// them), which bound a server's start and each remote call.
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
	var err error
	if o.MCPConnectTimeout, err = envMillis("MCP_TIMEOUT"); err != nil {
		return err
	}
	o.MCPToolTimeout, err = envMillis("MCP_TOOL_TIMEOUT")
	return err
}

// envMillis reads a duration in milliseconds from the environment variable
// name; unset is 0.
func envMillis(name string) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return 0, nil
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms <= 0 {
		return 0, fmt.Errorf("%s %q: give a positive number of milliseconds, e.g. 30000", name, v)
	}
	return time.Duration(ms) * time.Millisecond, nil
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
