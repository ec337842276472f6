package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// Resolver looks up a host's addresses; *net.Resolver is one. Tests give
// their own to point a name anywhere.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// BlockedError is a connection the guard refused: the host resolved to an
// address a fetch may not reach (loopback, private, link-local, multicast,
// unspecified, shared or reserved, which include the cloud metadata
// endpoints).
type BlockedError struct {
	Host string
	Addr netip.Addr
}

func (e *BlockedError) Error() string {
	if e.Host == e.Addr.String() {
		return fmt.Sprintf("%s is a %s address, which web fetches may not reach; to allow it for local development, start the server with --allow-hosts %s", e.Host, addrKind(e.Addr), e.Host)
	}
	return fmt.Sprintf("%s resolves to %s, a %s address, which web fetches may not reach; to allow it for local development, start the server with --allow-hosts %s", e.Host, e.Addr, addrKind(e.Addr), e.Host)
}

// reserved are ranges outside the standard library's classes that a
// server-side fetch must not reach: "this network", carrier-grade NAT (where
// Alibaba's metadata endpoint lives), IETF protocol assignments,
// benchmarking, the reserved class E and broadcast, and IPv6 translation
// and discard prefixes.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2002::/16"),
}

// Blocked reports whether a fetch may not reach a: loopback, private,
// link-local (169.254.169.254, the metadata endpoint of most clouds, is
// one), multicast, unspecified, or a reserved range. An IPv4-mapped IPv6
// address is judged as the IPv4 address it carries.
func Blocked(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() ||
		a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return true
	}
	for _, p := range reserved {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func addrKind(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	case a.IsUnspecified():
		return "unspecified"
	}
	return "reserved"
}

// guard dials only addresses a fetch may reach. It resolves the host itself,
// checks every address and connects to the address it checked, and the
// dialer's Control checks the socket's address once more, so a name that
// resolves differently on a second lookup (DNS rebinding) gains nothing.
type guard struct {
	allowHosts map[string]bool
	allowNets  []netip.Prefix
	resolver   Resolver
	dialer     net.Dialer
}

// newGuard parses allow: host names, IP addresses and CIDR prefixes that
// may be reached even when they are local.
func newGuard(allow []string, r Resolver) (*guard, error) {
	g := &guard{allowHosts: map[string]bool{}, resolver: r}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	for _, h := range allow {
		h = strings.ToLower(strings.TrimSpace(h))
		switch {
		case h == "":
			continue
		case strings.Contains(h, "/"):
			p, err := netip.ParsePrefix(h)
			if err != nil {
				return nil, fmt.Errorf("allowed host %q is not a host name, an IP address or a CIDR prefix such as 10.0.0.0/8: %v", h, err)
			}
			g.allowNets = append(g.allowNets, p.Masked())
		default:
			if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
				g.allowNets = append(g.allowNets, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
				continue
			}
			if strings.ContainsAny(h, ":@ ") {
				return nil, fmt.Errorf("allowed host %q is not a host name, an IP address or a CIDR prefix; give the name alone, without scheme or port", h)
			}
			g.allowHosts[strings.TrimSuffix(h, ".")] = true
		}
	}
	return g, nil
}

// allowed reports whether addr, reached through host, may be dialled.
func (g *guard) allowed(host string, a netip.Addr) bool {
	if g.allowHosts[strings.TrimSuffix(strings.ToLower(host), ".")] {
		return true
	}
	a = a.Unmap()
	for _, p := range g.allowNets {
		if p.Contains(a) {
			return true
		}
	}
	return !Blocked(a)
}

// DialContext is http.Transport's dial: resolve, check, connect to the
// checked address.
func (g *guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ips, err := g.resolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, err
		}
		for _, ip := range ips {
			if a, ok := netip.AddrFromSlice(ip.IP); ok {
				addrs = append(addrs, a.Unmap())
			}
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("%s has no addresses", host)
		}
	}
	var errs []error
	for _, a := range addrs {
		if !g.allowed(host, a) {
			errs = append(errs, &BlockedError{Host: host, Addr: a})
			continue
		}
		d := g.dialer
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			if ap.Addr().Unmap() != a || !g.allowed(host, ap.Addr()) {
				return &BlockedError{Host: host, Addr: ap.Addr()}
			}
			return nil
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}
