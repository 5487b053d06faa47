package chat

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/nicholas-fedor/shoutrrr/pkg/format"
	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/chat/discord"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/chat/mattermost"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/chat/slack"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/gotify"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/ntfy"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// Refusals: what Check finds wrong with a chat URL, told in Vigil's words
// rather than the library's ("setting config URL: token missing from
// config URL"), which may quote a secret of the URL (a query value, a
// token): the URL is named with its secrets hidden (spec.ShownChatURL,
// the checker's rule), then the
// part of it at fault.

// hidden stands for a secret of a URL in a refusal.
const hidden = "***"

// ownWords is a refusal Vigil words itself (a placeholder URL, Discord's
// /raw): refusal tells it as it is.
type ownWords string

func (e ownWords) Error() string { return string(e) }

// transportError is what dryTransport refuses a request for, in Vigil's
// words: net/http's would quote the URL built, token and all.
type transportError string

func (e transportError) Error() string { return string(e) }

// refused returns the refusal of target for why, words of Vigil's:
// `chat URL "discord://***@123": why`.
func refused(target, why string) error {
	return fmt.Errorf("chat URL %q: %s", spec.ShownChatURL(target), why)
}

// refusal returns err, why service name refuses target, as Check tells
// it: refused with what the library's known errors mean (explain), or
// else with the library's text, every secret of target in it hidden
// (hideSecrets).
func refusal(name, target string, err error) error {
	return refused(target, explain(name, target, err))
}

// explain returns what err, the library's refusal of target, a URL of
// service name, means, naming the part of the URL at fault; an error it
// does not know is the library's text with target's secrets hidden.
func explain(name, target string, err error) string {
	var own ownWords
	var te transportError
	var esc url.EscapeError
	switch {
	case errors.As(err, &own):
		return own.Error()
	case errors.As(err, &te):
		return te.Error()
	case errors.Is(err, router.ErrUnknownService):
		return name + " is not a chat service Vigil knows"
	case errors.Is(err, router.ErrParseURLFailed):
		return "the URL does not parse"

	case errors.Is(err, discord.ErrMissingToken):
		return "the webhook token is missing (discord://TOKEN@WEBHOOK_ID)"
	case errors.Is(err, discord.ErrMissingWebhookID):
		return "the webhook ID is missing (discord://TOKEN@WEBHOOK_ID)"
	case errors.Is(err, discord.ErrIllegalURLArgument):
		return "a Discord URL has no path but /raw (discord://TOKEN@WEBHOOK_ID)"
	case errors.Is(err, discord.ErrMalformedURL), errors.Is(err, discord.ErrInvalidToken), errors.Is(err, discord.ErrInvalidWebhookID):
		if u, perr := url.Parse(target); perr == nil && strings.Contains(u.User.Username()+u.Host, "/") {
			return `the webhook token or ID holds a "/" (discord://TOKEN@WEBHOOK_ID)`
		}
		return "the webhook token or ID is blank (discord://TOKEN@WEBHOOK_ID)"

	case errors.Is(err, slack.ErrInvalidToken):
		return "the token is not one Slack issues (slack://hook:WEBHOOK-TOKEN@webhook or slack://xoxb:BOT-TOKEN@CHANNEL)"
	case errors.Is(err, slack.ErrMismatchedTokenSeparators):
		return "the token's three parts are not separated alike (all by -, all by / or all by ,)"

	case errors.Is(err, mattermost.ErrNotEnoughArguments):
		return "the webhook token is missing (mattermost://HOST/TOKEN or mattermost://HOST/TOKEN/CHANNEL)"

	case errors.Is(err, ntfy.ErrTopicRequired):
		return "the topic is missing (ntfy://HOST/TOPIC)"

	case errors.Is(err, gotify.ErrInvalidToken):
		return `the application token is not one Gotify issues (15 letters, digits, ".", "-" or "_", the first an A)`
	case errors.Is(err, gotify.ErrInvalidPriority):
		return `the query parameter "priority" takes -2 to 10`
	case errors.Is(err, gotify.ErrExtrasParseFailed):
		return `the query parameter "extras" is not JSON`
	case errors.Is(err, gotify.ErrConfigPropertyFailed):
		// Gotify's error names neither the parameter nor its value.
		return "a query parameter is unknown to gotify, or its value is not one it takes"

	case errors.As(err, &esc):
		// The escape itself is not quoted: it may be in a token.
		return `the URL holds a "%" that begins no escape (write % as %25)`
	}
	if why := explainQuery(name, err); why != "" {
		return why
	}
	return hideSecrets(vigil.RedactURLs(err.Error()), target)
}

// queryKey finds the query parameter the library's error names, as its
// services word it.
var queryKey = regexp.MustCompile(`setting query parameter "([^"]*)"|setting config value for key ([^:]*):`)

// listed finds a list the library's error quotes: "[Min Low High]".
var listed = regexp.MustCompile(`\[([^\]]*)\]`)

// explainQuery returns what err, the library's refusal of a query
// parameter, means, "" if it is not one: an unknown parameter (with those
// the service takes) or a value of a form the parameter does not take.
// The value is not quoted: the URL shown names it, or hides it.
func explainQuery(name string, err error) string {
	text := err.Error()
	if errors.Is(err, format.ErrInvalidConfigKey) {
		_, rest, _ := strings.Cut(text, format.ErrInvalidConfigKey.Error()+": ")
		key, keys, _ := strings.Cut(rest, " (valid keys: ")
		why := fmt.Sprintf("%s takes no query parameter %q", name, key)
		if m := listed.FindStringSubmatch(keys); m != nil {
			why += " (it takes " + strings.Join(strings.Fields(m[1]), ", ") + ")"
		}
		return why
	}
	m := queryKey.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	param := fmt.Sprintf("the query parameter %q", m[1]+m[2])
	switch {
	case errors.Is(err, format.ErrInvalidEnumValue):
		if l := listed.FindStringSubmatch(text[strings.Index(text, format.ErrInvalidEnumValue.Error()):]); l != nil {
			return param + " takes " + orList(strings.Fields(l[1]))
		}
		return param + " takes none of its values"
	case errors.Is(err, format.ErrInvalidBoolValue):
		return param + " takes yes or no (1, true, yes or 0, false, no)"
	case errors.Is(err, format.ErrParseIntFailed), errors.Is(err, format.ErrParseUintFailed):
		return param + " takes a whole number"
	}
	return ""
}

// orList writes words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// hideSecrets returns text, an error's text about target, with each
// secret of target (vigil.URLSecrets) it quotes written ***, however
// short, where it stands as a word of its own: not where it is part of a
// longer word ("tk" in "token" is no secret's). The value of a query
// parameter that is not secret (spec.SecretQueryKey) is left, unless
// another part of target is the same text: the refusal names the URL
// with it shown (spec.ShownChatURL).
func hideSecrets(text, target string) string {
	for _, p := range vigil.URLSecrets(target) {
		if p.Key != "" && !spec.SecretQueryKey(p.Key) {
			continue
		}
		s := p.Text
		var b strings.Builder
		from := 0
		for i := 0; ; {
			j := strings.Index(text[i:], s)
			if j < 0 {
				break
			}
			j += i
			end := j + len(s)
			if (j == 0 || !wordByte(text[j-1])) && (end == len(text) || !wordByte(text[end])) {
				b.WriteString(text[from:j] + hidden)
				from, i = end, end
			} else {
				i = j + 1
			}
		}
		text = b.String() + text[from:]
	}
	return text
}

// wordByte reports whether c goes on a word: a letter, a digit, "_", or a
// byte of a UTF-8 sequence.
func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
