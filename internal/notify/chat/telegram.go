package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nicholas-fedor/shoutrrr/pkg/services/chat/telegram"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
	"github.com/vigil-web/vigil/render"
)

// telegramAPI is the Bot API's base URL.
const telegramAPI = "https://api.telegram.org"

// sendTelegram sends text to each chat of a Shoutrrr-style Telegram URL,
// telegram://TOKEN@telegram?chats=@channel,12345, through the Bot API's
// sendMessage. It is written here rather than left to Shoutrrr, whose
// Telegram service (v0.13.2) reads a request that failed as an empty
// answer and reports success: an unreachable API would mark the message
// sent, never to be retried. Here a message is sent when the API says
// "ok" for every chat. Errors name the chat, never the URL, which holds
// the bot's token.
func (n *Notifier) sendTelegram(ctx context.Context, target, text string, timeout time.Duration) error {
	tg, err := telegramParts(target)
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "chat telegram: %v", err)
	}
	text = clipUTF16(text, telegramMaxText)
	var rt http.RoundTripper = http.DefaultTransport
	if n.Transport != nil {
		rt = n.Transport
	}
	client := &http.Client{Transport: &notify.Transport{Base: rt}, Timeout: timeout}
	base := n.telegramAPI
	if base == "" {
		base = telegramAPI
	}
	// Every chat is tried. A message some chats got is not sent again to
	// them all: a chat that fails while others did not is tried twice more
	// here (one and two seconds later), then is a dead letter saying
	// which, rather than a retry that repeats the message to the others
	// at every attempt.
	var sent, failed []string
	var first error
	for _, chat := range tg.chats {
		msg := map[string]any{"chat_id": chat, "text": text}
		if tg.noPreview {
			msg["disable_web_page_preview"] = true
		}
		if tg.silent {
			msg["disable_notification"] = true
		}
		err := postTelegram(ctx, client, base+"/bot"+tg.token+"/sendMessage", msg)
		for try := 1; err != nil && len(sent) > 0 && vigil.ErrorCode(err) != vigil.EINVALID && try <= 2 && ctx.Err() == nil; try++ {
			// Others got it: a retry of the whole message would repeat
			// it to them, so this chat is tried again here, a little
			// later (a rate limit, a gateway's hiccup).
			select {
			case <-time.After(time.Duration(try) * n.chatRetryDelay()):
			case <-ctx.Done():
			}
			err = postTelegram(ctx, client, base+"/bot"+tg.token+"/sendMessage", msg)
		}
		if err != nil {
			failed = append(failed, chat)
			if first == nil {
				first = fmt.Errorf("chat telegram, chat %s: %w", chat, err)
			}
			continue
		}
		sent = append(sent, chat)
	}
	switch {
	case len(failed) == 0:
		return nil
	case len(sent) == 0:
		return first
	}
	return vigil.Errorf(vigil.EINVALID, "sent to chats %s; not to %s: %v", strings.Join(sent, ", "), strings.Join(failed, ", "), first)
}

// telegramMaxText is the most text a Telegram message holds, in UTF-16
// code units.
const telegramMaxText = 4096

// clipUTF16 cuts s to at most max UTF-16 code units, ending with "…" when
// cut, at the edge of a character as a reader sees it
// (render.ClusterCutBefore): Telegram counts a character outside the Basic
// Multilingual Plane (most emoji) as two.
func clipUTF16(s string, max int) string {
	width := func(r rune) int {
		if r >= 0x10000 {
			return 2
		}
		return 1
	}
	total := 0
	for _, r := range s {
		total += width(r)
	}
	if total <= max {
		return s
	}
	units, k := 0, 0 // k counts the runes before i, an invalid byte as one
	for i, r := range s {
		if units+width(r) > max-1 { // room for the ellipsis, one unit
			rs := []rune(s)
			for c := render.ClusterCutBefore(rs, k); k > c; k-- {
				_, size := utf8.DecodeLastRuneInString(s[:i])
				i -= size
			}
			return strings.ToValidUTF8(s[:i], "") + "…"
		}
		units += width(r)
		k++
	}
	return s
}

// telegramURL is what a Telegram URL says.
type telegramURL struct {
	token             string
	chats             []string
	noPreview, silent bool // preview=no, notification=no
}

// telegramParts reads a Telegram URL as Shoutrrr writes them. Its title and
// parsemode parameters are accepted and the text sent plain; a parameter
// Vigil does not know is refused rather than ignored.
func telegramParts(target string) (telegramURL, error) {
	var tg telegramURL
	u, err := url.Parse(target)
	if err != nil {
		return tg, errors.New("the URL does not parse")
	}
	pass, _ := u.User.Password()
	if u.User == nil || u.User.Username() == "" || pass == "" {
		return tg, errors.New("the URL needs the bot's token before @ (telegram://123456:ABC...@telegram?chats=@channel)")
	}
	tg.token = u.User.Username() + ":" + pass
	if !telegram.IsTokenValid(tg.token) {
		// Shoutrrr's rule: a token of another form, which the Bot API
		// does not issue, may not even make a request's URL.
		return tg, errors.New("the bot's token is not of the form the Bot API issues (digits, a colon, then letters, digits, _ and -)")
	}
	q := u.Query()
	for _, key := range []string{"chats", "channels"} { // in the order written
		var values []string
		for k, v := range q {
			if strings.EqualFold(k, key) {
				values = append(values, v...)
			}
		}
		for _, c := range strings.Split(strings.Join(values, ","), ",") {
			if c = strings.TrimSpace(c); c != "" {
				tg.chats = append(tg.chats, c)
			}
		}
	}
	off := func(v string) bool {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "no", "false", "0", "off":
			return true
		}
		return false
	}
	for key, values := range q {
		v := strings.Join(values, ",")
		switch strings.ToLower(key) {
		case "chats", "channels":
		case "preview":
			tg.noPreview = off(v)
		case "notification":
			tg.silent = off(v)
		case "title", "parsemode":
		default:
			return tg, fmt.Errorf("the URL's parameter %q is not one Vigil reads (chats, preview, notification, title, parsemode)", key)
		}
	}
	if len(tg.chats) == 0 {
		return tg, errors.New("the URL names no chat (?chats=@channel,12345)")
	}
	return tg, nil
}

// postTelegram posts one message and checks the API's answer.
func postTelegram(ctx context.Context, client *http.Client, endpoint string, msg map[string]any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "the request cannot be built") // nor will it be at the next attempt
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text quotes the URL, and with it the token
		}
		return err
	}
	defer resp.Body.Close()
	var answer struct {
		OK          bool   `json:"ok"`
		Description string `json:"description"`
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err := json.Unmarshal(raw, &answer); err != nil || !answer.OK {
		why := answer.Description
		if why == "" {
			why = "no answer the Bot API gives"
		}
		err := fmt.Errorf("status %d: %s", resp.StatusCode, why)
		switch resp.StatusCode {
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			// A wrong token or chat, a bot not in the chat, a message
			// the API refuses: retrying will not help.
			return vigil.Errorf(vigil.EINVALID, "%v", err)
		}
		return err
	}
	return nil
}

// chatRetryDelay is the wait before a chat is tried again, doubled the
// second time.
func (n *Notifier) chatRetryDelay() time.Duration {
	if n.retryDelay > 0 {
		return n.retryDelay
	}
	return time.Second
}
