package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The server listens on loopback without authentication, but any web page
// the user opens can make the browser send it requests. The guard turns
// those away before any work is done:
//
//   - DNS rebinding: a page whose name resolves to 127.0.0.1 sends the
//     browser's requests with its own Host. Only loopback names and the
//     hosts in [Options.Hosts] are served; any other Host gets 421.
//   - Cross-site requests: a form or a no-cors fetch can POST to loopback,
//     and an image or link can GET. A request that changes nothing would
//     still run a query, so every method but GET and HEAD, and a GET or
//     HEAD of a heavy route (see heavyRoute), must come from this origin
//     (Origin, or Sec-Fetch-Site when there is no Origin) or from a client
//     that is no browser (neither header), and bodies of the types a page
//     may send without asking (text/plain, forms) get 415.
//   - Framing: every response forbids being framed.
//
// It also reads a request's body before the request takes a slot, within
// [Options.BodyTimeout]: a client that trickles its body holds a connection, not
// one of the slots every route shares, and only until the timeout.

// hostAllowed reports whether the Host of a request names this server: a
// loopback name or address, or one of extra.
func hostAllowed(hostport string, extra []string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, h := range extra {
		if strings.EqualFold(host, strings.Trim(h, "[]")) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether a request that may change or run something
// comes from this server's own page, or from a client that is no browser.
func sameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host)
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return true
	}
	return false
}

// simpleBody reports a content type that a page may send to any origin
// without a preflight: text/plain and the form encodings.
func simpleBody(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType != ""
	}
	switch mt {
	case "text/plain", "application/x-www-form-urlencoded", "multipart/form-data":
		return true
	}
	return false
}

// guard applies the checks above; it answers and returns false when one
// fails. A request it lets through has its body read into memory.
func (s *Server) guard(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	if !hostAllowed(r.Host, s.opts.Hosts) {
		writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf("host %q is not served here; add it with serve --allow-host", r.Host))
		return false
	}
	safe := r.Method == http.MethodGet || r.Method == http.MethodHead
	// A GET that runs a query or streams the graph costs what a POST does,
	// and an <img> on any page can send it.
	if (!safe || heavyRoute(r)) && !sameOrigin(r) {
		writeError(w, http.StatusForbidden, "cross-origin request refused")
		return false
	}
	if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/cayley/") {
		if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
			writeError(w, http.StatusBadRequest, "query string: "+err.Error())
			return false
		}
	}
	if r.ContentLength == 0 {
		return true
	}
	if !safe && simpleBody(r.Header.Get("Content-Type")) && !strings.HasPrefix(r.URL.Path, "/cayley/") {
		writeError(w, http.StatusUnsupportedMediaType, "send the body as Content-Type: application/json")
		return false
	}
	if r.ContentLength > s.opts.MaxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", s.opts.MaxBodyBytes))
		return false
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.opts.BodyTimeout)) // not every ResponseWriter can; the server's ReadTimeout still bounds it
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		// The deadline stays where it is, past or near: net/http reads
		// what is left of a body before it answers, and a client that
		// stopped sending would hold the connection for ever. The
		// connection closes after the answer.
		w.Header().Set("Connection", "close")
		if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mbe.Limit))
		} else {
			s.log.Info("request body not read", "path", r.URL.Path, "err", errors.Unwrap(err))
			writeError(w, http.StatusRequestTimeout, "request body not received in time")
		}
		return false
	}
	rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// contentSecurityPolicy is sent with every response: the page's own
// scripts, styles and images only, and no framing by other pages.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"

// heavyRoute reports the requests that run queries or stream the graph;
// they share fewer slots, so that a burst of them leaves the page, search
// and statistics answering. A HEAD is never heavy: it gets the headers
// alone, and no work is done for it.
func heavyRoute(r *http.Request) bool {
	if r.Method == http.MethodHead {
		return false
	}
	p := r.URL.Path
	return strings.HasPrefix(p, "/api/queries/") && (r.Method == http.MethodPost || strings.HasSuffix(p, "/run")) ||
		p == "/api/entity" || p == "/api/export" || strings.HasPrefix(p, "/cayley/api/")
}
