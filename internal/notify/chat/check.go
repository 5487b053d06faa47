package chat

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/chat/discord"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/chat/slack"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/ntfy"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"
	"golang.org/x/net/http/httpguts"

	"github.com/vigil-web/vigil"
)

// Check reads a chat URL as Notify will, without sending anything, and
// returns why it cannot be used: the URL a user writes is checked when the
// sentinel is saved rather than found unusable at the first change. Its
// error names the URL with its secrets hidden and the part at fault, in
// Vigil's words (refusal.go: `chat URL "discord://***@123": the webhook
// token is missing (discord://TOKEN@WEBHOOK_ID)`), as spec's checker
// tells it. The
// service builds the request it would send (dryRun), so that what it
// checks only then (Gotify's token and priority, the webhook URL Discord
// posts to) is checked here too.
func Check(target string) error {
	name := service(target)
	if name == "smtp" {
		return refused(target, "smtp is not a chat service (write Notify By email)")
	}
	if name == "telegram" {
		if _, err := telegramParts(target); err != nil {
			return refused(target, err.Error()) // Vigil's words (telegram.go)
		}
		return nil
	}
	sr, err := router.New(nil)
	if err != nil {
		return err
	}
	if _, err := sr.Locate(target); err != nil {
		if why := initError(sr, name, target); errors.Is(err, router.ErrInitializeFailed) && why != nil {
			err = why
		}
		return refusal(name, target, err)
	}
	if err := dryRun(sr, target, "Vigil checks that this URL can be used.", "Vigil"); err != nil {
		return refusal(name, target, err)
	}
	return nil
}

// initError returns why the service name cannot be made from target, as
// the service says it: Shoutrrr's router drops that error for its own
// "failed to initialize service". It returns nil for a URL whose scheme
// is not the service's own (generic+https://...), which the router
// converts first.
func initError(sr *router.ServiceRouter, name, target string) error {
	u, err := url.Parse(target)
	if err != nil || strings.ToLower(u.Scheme) != name {
		return nil
	}
	svc, err := sr.NewService(name)
	if err != nil {
		return nil
	}
	return svc.Initialize(u, nil)
}

// errDryRun is dryTransport's answer to a request it was given: the
// service built it.
var errDryRun = errors.New("not sent: a dry run")

// dryRun has the service of target, a URL sr locates, build the request
// that would send text titled title, as Notify sends it, and gives it to
// a transport that sends nothing (dryTransport). It returns what the
// service refuses before a request would leave (Shoutrrr checks some of a
// URL at Initialize and the rest only at Send: Gotify's token format and
// priority, the webhook URL Discord posts to, a Mattermost hook a request
// cannot be built to), and what a URL asks that Vigil's messages cannot
// be sent with. No retry mends any of them, and nothing reaches the
// network. A service whose requests cannot be caught (Slack's go out on
// http.DefaultClient) is not sent at all: Slack checks its token at
// Initialize, and builds no request that could fail after. A panic of the
// library is a *vigil.PanicError.
func dryRun(sr *router.ServiceRouter, target, text, title string) error {
	svc, err := sr.Locate(target)
	if err != nil {
		return err
	}
	// Shoutrrr's placeholder URLs, which its services read without the
	// checks they give every other URL (a Slack token, an ntfy topic).
	if u, err := url.Parse(target); err == nil && strings.EqualFold(u.User.String()+"@"+u.Host, "dummy@dummy.com") && u.Path == "" && u.RawQuery == "" {
		return ownWords("dummy@dummy.com is Shoutrrr's placeholder, which names nothing to send to")
	}
	dry := &http.Client{Transport: dryTransport{}}
	switch s := svc.(type) {
	case *slack.Service:
		return nil
	case *discord.Service:
		if s.Config.JSON {
			return ownWords("the URL's /raw sends the message as Discord's JSON payload, and Vigil's messages are text")
		}
		s.HTTPClient, s.Sleeper = dry, noSleep{}
	case *ntfy.Service:
		s.SetHTTPClient(dry)
	case interface{ GetHTTPClient() *http.Client }: // gotify, mattermost
		c := s.GetHTTPClient()
		if c == nil {
			return nil // Notify refuses it (route)
		}
		c.Transport = dryTransport{}
	default:
		return nil
	}
	err = <-vigil.Go(func() error { return svc.Send(text, &types.Params{"title": title}) })
	if errors.Is(err, errDryRun) {
		return nil
	}
	return err
}

// dryTransport refuses every request with errDryRun, sending nothing,
// once it has checked it as net/http's transport would before sending:
// an http or https URL with a host, and header fields a request may
// carry; what it refuses is a transportError, in Vigil's words.
type dryTransport struct{}

func (dryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
		return nil, transportError(fmt.Sprintf("the request would be sent by %s, not http or https (?scheme=http or https)", r.URL.Scheme))
	}
	if r.URL.Host == "" {
		return nil, transportError("the request would name no host")
	}
	for k, vs := range r.Header {
		if !httpguts.ValidHeaderFieldName(k) {
			return nil, transportError(fmt.Sprintf("the query parameter that names a header names %q, which no header may be named", k))
		}
		for _, v := range vs {
			if !httpguts.ValidHeaderFieldValue(v) {
				return nil, transportError(fmt.Sprintf("the query parameter that sets the header %q holds a character no header may (a line break, a control character)", k))
			}
		}
	}
	return nil, errDryRun
}

// noSleep is a discord.Sleeper that does not wait: a dry run is not
// retried, but should the library take its refusal for a passing one, it
// tries again at once.
type noSleep struct{}

func (noSleep) Sleep(time.Duration) {}
