package isolate

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Proxy is the HTTP and HTTPS (CONNECT) proxy of the "allow" network mode:
// it listens on a UNIX socket, which the helper forwards commands'
// connections to, and admits only requests for the allowed domains. It
// runs in the server, outside every command's namespace.
type Proxy struct {
	socket string
	allow  []string
	l      net.Listener
	srv    *http.Server
	wg     sync.WaitGroup
}

// NewProxy starts a proxy for the allow list on the UNIX socket path.
func NewProxy(path string, allow []string) (*Proxy, error) {
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("network proxy: %w", err)
	}
	p := &Proxy{socket: path, allow: allow, l: l}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	p.wg.Go(func() { p.srv.Serve(l) })
	return p, nil
}

// Socket returns the proxy's socket path.
func (p *Proxy) Socket() string { return p.socket }

// Close stops the proxy and its connections.
func (p *Proxy) Close() error {
	err := p.srv.Close()
	p.wg.Wait()
	return err
}

// Allowed reports whether the proxy admits host: a domain of the list, or
// a host below a "*.domain" entry (the rule of WebFetch(domain:…)
// permissions). Letters are compared without case; a trailing dot is
// ignored.
func Allowed(allow []string, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, d := range allow {
		if base, ok := strings.CutPrefix(d, "*."); ok {
			if strings.HasSuffix(host, "."+base) {
				return true
			}
		} else if host == d {
			return true
		}
	}
	return false
}

func (p *Proxy) refuse(w http.ResponseWriter, host string) {
	http.Error(w, fmt.Sprintf("hands: the network policy does not admit %s; it admits only %s (--network allow=…)", host, strings.Join(p.allow, ", ")), http.StatusForbidden)
}

// ServeHTTP proxies one request: CONNECT host:port tunnels, absolute-URI
// requests are forwarded; everything else is refused.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		host, port, err := net.SplitHostPort(r.Host)
		if err != nil || port == "" {
			http.Error(w, "hands: CONNECT needs host:port", http.StatusBadRequest)
			return
		}
		if !Allowed(p.allow, host) {
			p.refuse(w, host)
			return
		}
		up, err := net.DialTimeout("tcp", r.Host, 30*time.Second)
		if err != nil {
			http.Error(w, "hands: "+err.Error(), http.StatusBadGateway)
			return
		}
		hj, ok := w.(http.Hijacker)
		if !ok {
			up.Close()
			http.Error(w, "hands: cannot tunnel", http.StatusInternalServerError)
			return
		}
		c, buf, err := hj.Hijack()
		if err != nil {
			up.Close()
			return
		}
		c.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
		done := make(chan struct{}, 2)
		go func() { io.Copy(up, buf); closeWrite(up); done <- struct{}{} }()
		go func() { io.Copy(c, up); closeWrite(c); done <- struct{}{} }()
		<-done
		<-done
		c.Close()
		up.Close()
		return
	}
	if !r.URL.IsAbs() || r.URL.Scheme != "http" {
		http.Error(w, "hands: this is a proxy; send absolute http:// URLs or CONNECT", http.StatusBadRequest)
		return
	}
	if !Allowed(p.allow, r.URL.Hostname()) {
		p.refuse(w, r.URL.Hostname())
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Connection", "Keep-Alive", "Te", "Trailer", "Upgrade"} {
		out.Header.Del(h)
	}
	res, err := proxyTransport.RoundTrip(out)
	if err != nil {
		http.Error(w, "hands: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.StatusCode)
	io.Copy(w, res.Body)
}

// proxyTransport forwards plain HTTP requests, never through another
// proxy.
var proxyTransport = &http.Transport{Proxy: nil, DialContext: (&net.Dialer{Timeout: 30 * time.Second}).DialContext}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	} else {
		c.Close()
	}
}
