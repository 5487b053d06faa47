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

	"github.com/vigil-web/vigil"
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
	token, chats, err := telegramParts(target)
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "chat telegram: %v", err)
	}
	var rt http.RoundTripper = http.DefaultTransport
	if n.Transport != nil {
		rt = n.Transport
	}
	client := &http.Client{Transport: rt, Timeout: timeout}
	base := n.telegramAPI
	if base == "" {
		base = telegramAPI
	}
	for _, chat := range chats {
		if err := postTelegram(ctx, client, base+"/bot"+token+"/sendMessage", chat, text); err != nil {
			return fmt.Errorf("chat telegram, chat %s: %w", chat, err)
		}
	}
	return nil
}

// telegramParts returns the bot token and the chats of a Telegram URL.
func telegramParts(target string) (token string, chats []string, err error) {
	u, err := url.Parse(target)
	if err != nil {
		return "", nil, errors.New("the URL does not parse")
	}
	pass, _ := u.User.Password()
	if u.User == nil || u.User.Username() == "" || pass == "" {
		return "", nil, errors.New("the URL needs the bot's token before @ (telegram://123456:ABC...@telegram?chats=@channel)")
	}
	for _, key := range []string{"chats", "channels"} {
		for _, c := range strings.Split(u.Query().Get(key), ",") {
			if c = strings.TrimSpace(c); c != "" {
				chats = append(chats, c)
			}
		}
	}
	if len(chats) == 0 {
		return "", nil, errors.New("the URL names no chat (?chats=@channel,12345)")
	}
	return u.User.Username() + ":" + pass, chats, nil
}

// postTelegram posts one message and checks the API's answer.
func postTelegram(ctx context.Context, client *http.Client, endpoint, chat, text string) error {
	body, err := json.Marshal(map[string]string{"chat_id": chat, "text": text})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return errors.New("the request cannot be built")
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
