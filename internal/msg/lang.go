package msg

import (
	"fmt"
	"strings"
)

// ParseLang reads a language as -lang takes it: "en" or "zh", and the forms a
// locale writes them in ("zh_CN", "zh-TW", "en_US.UTF-8"), any case.
func ParseLang(s string) (Lang, error) {
	code := strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(code, "_-.@"); i >= 0 {
		code = code[:i]
	}
	switch code {
	case "en", "c", "posix":
		return EN, nil
	case "zh", "cn", "chinese", "中文":
		return ZH, nil
	}
	return EN, fmt.Errorf("want zh or en")
}

// FromEnv is the language of the locale getenv gives, as POSIX orders the
// variables: LC_ALL, then LC_MESSAGES, then LANG, the first set deciding; a zh
// locale (zh_CN.UTF-8, zh_TW) is Chinese, anything else English. A command's
// main passes os.Getenv; its run never reads the environment.
func FromEnv(getenv func(string) string) Lang {
	for _, v := range [...]string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			if l, err := ParseLang(s); err == nil {
				return l
			}
			return EN
		}
	}
	return EN
}

// T is the message key names, in l; a key neither table has comes back as
// "!key", which the tests catch.
func (l Lang) T(key string) string {
	table := en
	if l == ZH {
		table = zh
	}
	if s, ok := table[key]; ok {
		return s
	}
	return "!" + key
}

// F is the message key names, in l, formatted with args as fmt.Sprintf does.
func (l Lang) F(key string, args ...any) string { return fmt.Sprintf(l.T(key), args...) }

// TOr is the message key names, in l, or fallback when the tables have none: a
// word the library writes that the tables may translate (a quote line's item).
func (l Lang) TOr(key, fallback string) string {
	if _, ok := en[key]; ok {
		return l.T(key)
	}
	return fallback
}

// N writes a count with its noun: the message key+".one" for 1 and key+".many"
// otherwise, formatted with n ("1 GPU", "8 GPUs"; in Chinese, which has one
// form, "8 张卡").
func (l Lang) N(n int, key string) string {
	if n == 1 {
		return l.F(key+".one", n)
	}
	return l.F(key+".many", n)
}

// Currency names a currency for a column's heading: its code, and in Chinese
// "元" for yuan.
func (l Lang) Currency(code string) string {
	if l == ZH && code == "CNY" {
		return "元"
	}
	return code
}
