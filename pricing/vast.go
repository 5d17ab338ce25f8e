package pricing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// VastProvider is the Provider of the offers LoadVastJSON reads.
const VastProvider = "vast.ai"

// vastPricePlaces is the number of decimal places LoadVastJSON keeps of a price:
// vast.ai writes dph_total as a binary float's shortest decimal
// (0.3466666666666667), whose digits past the sixth place are the float's noise.
const vastPricePlaces = 6

// vastOffer holds the fields of a vast.ai offer that LoadVastJSON reads. Numbers
// stay text (json.Number), so that no price passes through a float.
type vastOffer struct {
	ID           json.Number `json:"id"`
	MachineID    json.Number `json:"machine_id"`
	GPUName      string      `json:"gpu_name"`
	NumGPUs      json.Number `json:"num_gpus"`
	GPURAM       json.Number `json:"gpu_ram"`
	DPHTotal     json.Number `json:"dph_total"`
	Reliability2 json.Number `json:"reliability2"`
	Reliability  json.Number `json:"reliability"`
	Geolocation  string      `json:"geolocation"`
	Verification string      `json:"verification"`
}

// LoadVastJSON reads the offers of the vast.ai marketplace as `vastai search
// offers --raw` prints them: a JSON array of offer objects (or the API's
// {"offers": [...]}). Each is one machine's GPUs, rented together: an offer with
// GPUsPerInstance and MaxGPUs both num_gpus, its Tariff the machine's dph_total in
// USD per hour (rounded half up to 6 decimal places, as the float it is written
// as carries no more), Provider VastProvider, Region the geolocation, the card
// gpu_name with its memory (gpu_ram, in MB as nvidia-smi reports MiB: "RTX 4090"
// with 24564 becomes "RTX 4090 24GB"), and Line the line the object starts on.
//
// vast.ai's reliability score (reliability2, else reliability: a fraction from 0
// to 1 that vast.ai derives from the machine's uptime record) becomes an
// estimate of InterruptionsPerDay, stated as such in Notes: the score is read as
// the chance of a day without an interruption, so that with interruptions as a
// Poisson process the rate is −ln(reliability) a day (0.99 gives 0.01005 a day,
// 0.9 gives 0.105). vast.ai does not publish how the score is computed; the
// estimate is a reading of it, not the provider's figure. Without a score the
// rate is zero (unknown) and Notes says so.
//
// Other fields are ignored (vast.ai's offers carry over a hundred and add more).
// An offer without gpu_name, with num_gpus not a whole number of at least one, a
// missing, malformed, zero or negative dph_total, or a reliability outside 0 to 1
// is an error naming its line, a *ParseError wrapping ErrInvalid. The bounds and
// checks of LoadOffersJSON apply.
func LoadVastJSON(r io.Reader) ([]Offer, error) {
	return loadJSONOffers(r, "vast.ai offers", true, func(raw json.RawMessage, line int) (Offer, error) {
		var v vastOffer
		if err := json.Unmarshal(raw, &v); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return Offer{}, &fieldError{te.Field, "", fmt.Errorf("want %s, got a JSON %s", te.Type, te.Value)}
			}
			return Offer{}, err
		}
		o, err := v.offer()
		if err != nil {
			return o, err
		}
		o.Line = line
		return o, o.Validate()
	})
}

// offer turns a vast.ai offer into an Offer; an error is a *fieldError naming
// the field.
func (v vastOffer) offer() (Offer, error) {
	name := strings.TrimSpace(v.GPUName)
	if name == "" {
		return Offer{}, &fieldError{"gpu_name", "", fmt.Errorf("no GPU name")}
	}
	n, err := strconv.Atoi(v.NumGPUs.String())
	if err != nil || n < 1 || n > 1_000_000 {
		return Offer{}, &fieldError{"num_gpus", v.NumGPUs.String(), fmt.Errorf("want a whole number of GPUs, 1 or more")}
	}
	card := name
	if s := v.GPURAM.String(); s != "" {
		mb, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(mb) || mb < 0 || mb > 1<<30 {
			return Offer{}, &fieldError{"gpu_ram", s, fmt.Errorf("want the GPU's memory in MB")}
		}
		if gb := memoryGB(mb); gb > 0 && !statesMemory(name) { // a size that rounds to 0 GB says nothing
			card = name + " " + strconv.FormatInt(gb, 10) + "GB"
		}
	}
	price, err := vastPrice(v.DPHTotal.String())
	if err != nil {
		return Offer{}, &fieldError{"dph_total", v.DPHTotal.String(), err}
	}
	o := Offer{
		Provider: VastProvider, Region: strings.TrimSpace(v.Geolocation), Card: card,
		MaxGPUs: n, GPUsPerInstance: n,
		Tariff: Tariff{Currency: "USD", Hourly: price},
	}
	notes := "offer " + v.ID.String()
	if m := v.MachineID.String(); m != "" {
		notes += " on machine " + m
	}
	if v.Verification != "" {
		notes += ", " + v.Verification
	}
	rel, relField := v.Reliability2, "reliability2"
	if rel == "" {
		rel, relField = v.Reliability, "reliability"
	}
	if rel == "" {
		o.Notes = notes + "; no reliability score: interruption rate unknown"
		return o, nil
	}
	r, err := strconv.ParseFloat(rel.String(), 64)
	if err != nil || !(r > 0 && r <= 1) {
		return Offer{}, &fieldError{relField, rel.String(), fmt.Errorf("want a reliability above 0 and at most 1")}
	}
	o.InterruptionsPerDay = -math.Log(r)
	if o.InterruptionsPerDay == 0 {
		o.InterruptionsPerDay = 0 // −ln(1) is −0
	}
	o.Notes = fmt.Sprintf("%s; reliability %s: about %.3g interruptions a day, an estimate read from the score as -ln(reliability)",
		notes, rel.String(), o.InterruptionsPerDay)
	return o, nil
}

// vastPrice reads dph_total, a JSON number, exactly from its text and rounds it
// half up to vastPricePlaces places. A positive price is required.
func vastPrice(s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Decimal{}, fmt.Errorf("no price")
	}
	// A JSON number's text: the exponent is bounded before decimal reads it, so
	// that 1e-2000000000 cannot make rounding slow.
	if len(s) > 40 {
		return decimal.Decimal{}, fmt.Errorf("a price of %d characters", len(s))
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e < -30 || e > 15 {
			return decimal.Decimal{}, fmt.Errorf("a price out of range")
		}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("not a number")
	}
	d = d.Round(vastPricePlaces)
	if d.Sign() <= 0 {
		return decimal.Decimal{}, fmt.Errorf("want a price above zero")
	}
	if err := checkPrice("hourly", d); err != nil {
		return decimal.Decimal{}, err
	}
	return d, nil
}
