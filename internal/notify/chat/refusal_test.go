package chat

import (
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestCheckRefusalWords: a chat URL the library refuses is told in
// Vigil's words, naming the URL with its secrets hidden (its user
// information, its path's segments, a secret query value, as ***) and
// the part at fault, and quoting no secret, however short; the library's
// own words ("setting config URL: token missing from config URL",
// "setting query parameter "token" to "SECRETTK": not a valid config
// key") were shown as they were, a query value, a token, with them.
func TestCheckRefusalWords(t *testing.T) {
	for name, tc := range map[string]struct {
		url, want string
		secrets   []string
	}{
		"discord no token":    {"discord://@123456789012345678", `chat URL "discord://@123456789012345678": the webhook token is missing (discord://TOKEN@WEBHOOK_ID)`, nil},
		"discord no user":     {"discord://123456789012345678", `chat URL "discord://123456789012345678": the webhook token is missing (discord://TOKEN@WEBHOOK_ID)`, nil},
		"discord no id":       {"discord://SeCrEt@", `chat URL "discord://***@": the webhook ID is missing (discord://TOKEN@WEBHOOK_ID)`, []string{"SeCrEt"}},
		"discord path":        {"discord://SeCrEt@123/SeCrEt2", `chat URL "discord://***@123/***": a Discord URL has no path but /raw (discord://TOKEN@WEBHOOK_ID)`, []string{"SeCrEt"}},
		"discord malformed":   {"discord://Se%2FcrEt@123456789012345678", `chat URL "discord://***@123456789012345678": the webhook token or ID holds a "/" (discord://TOKEN@WEBHOOK_ID)`, []string{"Se%2FcrEt", "Se/crEt"}},
		"discord unknown key": {"discord://SeCrEt@123?foo=bar", `chat URL "discord://***@123?foo=bar": discord takes no query parameter "foo" (it takes avatar, avatarurl, color, colordebug, colorerror, colorinfo, colorwarn, json, splitlines, thread_id, title, username)`, []string{"SeCrEt"}},
		"discord bool":        {"discord://SeCrEt@123?splitlines=maybe", `chat URL "discord://***@123?splitlines=maybe": the query parameter "splitlines" takes yes or no (1, true, yes or 0, false, no)`, []string{"SeCrEt"}},
		"slack token":         {"slack://xoxb-SLACKSECRET@C0123456", `chat URL "slack://***@C0123456": the token is not one Slack issues (slack://hook:WEBHOOK-TOKEN@webhook or slack://xoxb:BOT-TOKEN@CHANNEL)`, []string{"SLACKSECRET"}},
		"slack no token":      {"slack://hooks.slack.com", `chat URL "slack://hooks.slack.com": the token is not one Slack issues (slack://hook:WEBHOOK-TOKEN@webhook or slack://xoxb:BOT-TOKEN@CHANNEL)`, nil},
		"slack separators":    {"slack://hook:AAAAAAAAA-BBBBBBBBB,CCCCCCCCCCCCCCCCCCCCCCCC@webhook", `chat URL "slack://***@webhook": the token's three parts are not separated alike (all by -, all by / or all by ,)`, []string{"AAAAAAAAA", "CCCC"}},
		"ntfy no topic":       {"ntfy://ntfy.example.org", `chat URL "ntfy://ntfy.example.org": the topic is missing (ntfy://HOST/TOPIC)`, nil},
		"ntfy enum":           {"ntfy://bob:pw@ntfy.example.org/tpc?priority=bogus", `chat URL "ntfy://***@ntfy.example.org/***?priority=bogus": the query parameter "priority" takes Min, Low, Default, High or Max`, []string{"bob", "pw", "tpc"}},
		"ntfy token key":      {"ntfy://ntfy.example.org/tpc?token=tk1&title=x", `chat URL "ntfy://ntfy.example.org/***?token=***&title=x": ntfy takes no query parameter "token" (it takes actions, at, attach, cache, click, delay, disabletls, disabletlsverification, email, filename, firebase, icon, in, priority, scheme, tags, title)`, []string{"tk1", "tpc"}},
		"ntfy scheme":         {"ntfy://ntfy.example.org/tpc?scheme=ftp", `chat URL "ntfy://ntfy.example.org/***?scheme=ftp": the request would be sent by ftp, not http or https (?scheme=http or https)`, []string{"tpc"}},
		"ntfy header":         {"ntfy://ntfy.example.org/tpc?click=a%0Ab", `chat URL "ntfy://ntfy.example.org/***?click=a%0Ab": the query parameter that sets the header "Click" holds a character no header may (a line break, a control character)`, []string{"tpc"}},
		"gotify token":        {"gotify://gotify.example.org/AbCdTok", `chat URL "gotify://gotify.example.org/***": the application token is not one Gotify issues (15 letters, digits, ".", "-" or "_", the first an A)`, []string{"AbCdTok"}},
		"gotify no token":     {"gotify://gotify.example.org", `chat URL "gotify://gotify.example.org": the application token is not one Gotify issues (15 letters, digits, ".", "-" or "_", the first an A)`, nil},
		"gotify priority":     {"gotify://gotify.example.org/AbCdEfGhIjKlMnO?priority=11", `chat URL "gotify://gotify.example.org/***?priority=11": the query parameter "priority" takes -2 to 10`, []string{"AbCdEfGhIjKlMnO"}},
		"gotify query":        {"gotify://gotify.example.org/AbCdEfGhIjKlMnO?priority=abc", `chat URL "gotify://gotify.example.org/***?priority=abc": a query parameter is unknown to gotify, or its value is not one it takes`, []string{"AbCdEfGhIjKlMnO"}},
		"mattermost no token": {"mattermost://mm.example.org", `chat URL "mattermost://mm.example.org": the webhook token is missing (mattermost://HOST/TOKEN or mattermost://HOST/TOKEN/CHANNEL)`, nil},
		"mattermost escape":   {"mattermost://mm.example.org/hk%25zz", `chat URL "mattermost://mm.example.org/***": the URL holds a "%" that begins no escape (write % as %25)`, []string{"hk", "zz"}},
		"mattermost key":      {"mattermost://bob:pw@mm.example.org/hk?x=1", `chat URL "mattermost://***@mm.example.org/***?x=1": mattermost takes no query parameter "x" (it takes disabletls, icon, icon_emoji, icon_url, title)`, []string{"bob", "pw", "hk"}},
		"telegram token":      {"telegram://bot:S3CRET@telegram?chats=@news", `chat URL "telegram://***@telegram?chats=@news": the bot's token is not of the form the Bot API issues (digits, a colon, then letters, digits, _ and -)`, []string{"S3CRET"}},
		"telegram no chat":    {"telegram://123456:S3CRET@telegram", `chat URL "telegram://***@telegram": the URL names no chat (?chats=@channel,12345)`, []string{"S3CRET"}},
		"placeholder":         {"ntfy://dummy@dummy.com", `chat URL "ntfy://***@dummy.com": dummy@dummy.com is Shoutrrr's placeholder, which names nothing to send to`, nil},
		"discord raw":         {"discord://SeCrEt@123456789012345678/raw", `chat URL "discord://***@123456789012345678/***": the URL's /raw sends the message as Discord's JSON payload, and Vigil's messages are text`, []string{"SeCrEt"}},
		"smtp":                {"smtp://u:pw@h.example/?to=a@b.example", `chat URL "smtp://***@h.example/?to=a@b.example": smtp is not a chat service (write Notify By email)`, []string{"pw"}},
		"unknown service":     {"nosuch://SeCrEt@h.example/x", `chat URL "nosuch://***@h.example/***": nosuch is not a chat service Vigil knows`, []string{"SeCrEt"}},
	} {
		t.Run(name, func(t *testing.T) {
			err := Check(tc.url)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Check(%s) =\n%v\nwant\n%s", tc.url, err, tc.want)
			}
			for _, s := range tc.secrets {
				if err != nil && strings.Contains(err.Error(), s) {
					t.Errorf("Check(%s) = %v: %q shows", tc.url, err, s)
				}
			}
		})
	}
}

// TestRefusalFallback: a refusal the library words in a way Vigil does
// not know keeps the library's words, with every secret of the URL
// hidden wherever the text quotes it (its user name and password, its
// path's segments, a token= or password= query value, however short),
// and any URL in it cut to its scheme and host.
func TestRefusalFallback(t *testing.T) {
	const target = "ntfy://bob:pw9@ntfy.example.org/tpc/sub?token=tk1&password=p4&tags=a"
	lib := errors.New(`topic "tpc" refused for bob (pw9), token tk1, p4: post https://ntfy.example.org/tpc?token=tk1 failed; tags a`)
	got := refusal("ntfy", target, lib).Error()
	want := `chat URL "ntfy://***@ntfy.example.org/***/***?token=***&password=***&tags=a": topic "***" refused for *** (***), token ***, ***: post https://ntfy.example.org/… failed; tags a`
	if got != want {
		t.Errorf("refusal =\n%s\nwant\n%s", got, want)
	}
	for _, s := range []string{"bob", "pw9", "tpc", "tk1", "p4"} {
		if strings.Contains(got, s) {
			t.Errorf("%q shows in %s", s, got)
		}
	}
}

// schemeForm is a URL scheme's form (RFC 3986 section 3.1).
var schemeForm = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// FuzzRefusalHidesSecrets: whatever the URL and the library's words,
// refusal does not panic, and quotes neither the URL's password nor a
// token= value, in the URL it shows or in the words it keeps, but where
// the host it shows holds them; a URL that does not parse is shown as
// its scheme and *** or as *** alone, and words quoting it whole keep
// none of it.
func FuzzRefusalHidesSecrets(f *testing.F) {
	f.Add("ntfy://bob:pw9@ntfy.example.org/tpc?token=tk1", `topic "tpc" for bob:pw9 token tk1`)
	f.Add("discord://SeCrEt@123/raw", "setting config URL: SeCrEt")
	f.Add("gotify://h.example/AbC?token=x&password=", "invalid gotify token: \"AbC\"")
	f.Add("slack://hook:a/b@webhook", "post https://hooks.slack.com/services/a/b: a/b")
	f.Add("mattermost://h.example/%zz", "%zz")
	f.Add("ntfy://u:p4ssw@h.example/t", "p4ssw")
	f.Add("discord://SeCrEt@123/%zz", "discord://SeCrEt@123/%zz")
	f.Add("x?token=abc#%zz:", "x?token=abc#%zz:")
	f.Add("ntfy://h.example/t?a=1;token=SeCrEt", "SeCrEt")
	f.Fuzz(func(t *testing.T, target, words string) {
		got := refusal("ntfy", target, errors.New(words)).Error()
		u, err := url.Parse(target)
		if err != nil {
			shown := spec.ShownChatURL(target)
			if scheme, ok := strings.CutSuffix(shown, "://"+hidden); shown != hidden && (!ok || !schemeForm.MatchString(scheme) || !strings.HasPrefix(target, scheme+":")) {
				t.Errorf("spec.ShownChatURL(%q) = %q: want its scheme and %s, or %s", target, shown, hidden, hidden)
			}
			if rest := strings.TrimLeft(target[strings.IndexByte(target, ':')+1:], "/"); words == target && len(rest) >= 3 && !strings.Contains(hidden, rest) && strings.Contains(strings.TrimPrefix(got, "chat URL "+strconv.Quote(shown)), rest) {
				t.Errorf("refusal(%q, %q) = %q: the library's words quote it", target, words, got)
			}
			return
		}
		var secrets []string
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
		if tk := u.Query().Get("token"); tk != "" && u.Query().Has("token") && len(u.Query()["token"]) == 1 {
			secrets = append(secrets, tk)
		}
		shown := spec.ShownChatURL(target)
		for _, s := range secrets {
			if len(s) < 3 || strings.ContainsAny(s, "*/?#&=@: \"") || strings.Contains(strings.ToLower(u.Host), strings.ToLower(s)) {
				continue // too short to tell from the words around it
			}
			if strings.Contains(shown, s) {
				t.Errorf("spec.ShownChatURL(%q) = %q shows %q", target, shown, s)
			}
			if words == s && strings.HasSuffix(got, ": "+s) {
				t.Errorf("refusal(%q, %q) = %q: the library's words quote it", target, words, got)
			}
		}
	})
}

// TestHideSecretsRule: the library's words are hidden by the rule of
// vigil.URLSecrets. The cases are those where the refusals' own rule,
// before it became that one, hid less: the user information as written of
// a URL without a scheme, and what follows the first ":" of a URL that
// does not parse where no scheme stands before it; and one where the
// refusals still hide less than RedactTarget: the value of a query
// parameter that is not secret, which the refusal shows in the URL it
// names.
func TestHideSecretsRule(t *testing.T) {
	for name, tc := range map[string]struct{ text, target, want string }{
		"user information as written, no scheme": {"user u, password p%40ss or p@ss", "//u:p%40ss@h.example/x", "user ***, password *** or ***"},
		"does not parse, no scheme":              {"SECRET%zz refused", "a b:SECRET%zz", "*** refused"},
		"query value not secret":                 {"title HelloWorld, token t", "ntfy://h.example/tpc?title=HelloWorld&token=t", "title HelloWorld, token ***"},
		"query value not secret, also a segment": {"abc and xyz", "ntfy://h.example/abc?title=abc&x=xyz", "*** and xyz"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := hideSecrets(tc.text, tc.target); got != tc.want {
				t.Errorf("hideSecrets(%q, %q) = %q, want %q", tc.text, tc.target, got, tc.want)
			}
		})
	}
}
