package fetch

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// renderLog is what the guard proxy records of one render's requests:
// the hosts the address guard refused (refused) and those whose tunnels
// could not be opened for another reason, or whose server sent nothing
// through them in time (tunnelFailed). Each render logs in to the proxy
// with credentials of its own (user and password), which its tab gives
// when the proxy asks (navigationGate.answer): the proxy tells by them
// whose request it serves, and records its failures for that render only.
// Another render of the same host at the same time, whose request was
// refused or whose tunnel timed out, is not told of them: each render
// fails with its own documents' errors.
type renderLog struct {
	user, password string
	refused        refusals
	tunnelFailed   refusals
}

// begin opens a log for a render, with credentials of its own (the
// user proxyUser-N and a random password of 64 hex digits), valid until
// end is called with it.
func (p *guardProxy) begin() *renderLog {
	key := make([]byte, 32)
	rand.Read(key) // never fails (crypto/rand)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logged++
	l := &renderLog{user: proxyUser + "-" + strconv.FormatUint(p.logged, 10), password: hex.EncodeToString(key)}
	if p.logs == nil {
		p.logs = map[string]*renderLog{}
	}
	p.logs[l.user] = l
	return l
}

// end closes l: its credentials are refused from now on.
func (p *guardProxy) end(l *renderLog) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.logs, l.user)
}

// authorized returns the log of the render whose credentials r gives in
// Proxy-Authorization (Basic), nil if it gives none of a render open.
func (p *guardProxy) authorized(r *http.Request) *renderLog {
	scheme, given, ok := strings.Cut(r.Header.Get("Proxy-Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Basic") {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(given))
	if err != nil {
		return nil
	}
	user, password, _ := strings.Cut(string(raw), ":")
	p.mu.Lock()
	l := p.logs[user]
	p.mu.Unlock()
	if l == nil || subtle.ConstantTimeCompare([]byte(password), []byte(l.password)) != 1 {
		return nil
	}
	return l
}
