/**
 * ISO 4217 alphabetic currency codes: the current list (List One, 2025, with XCG beside ANG while both circulate)
 * and the withdrawn codes that cost data or published rate files still carry (List Three: the euro's predecessors
 * and the other codes of the ECB's historical reference rates; HRK, SLL, ZWL, VEF replaced in 2018–2024). XTS (for
 * testing) and XXX (no currency) are left out: no cost is billed in them.
 */
const CURRENT = `AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL
LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG
QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH
UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XUA YER ZAR
ZMW ZWG`;
const WITHDRAWN = `ATS BEF CYP DEM EEK ESP FIM FRF GRD HRK IEP ITL LTL LUF LVL MTL NLG PTE ROL SIT SKK SLL TRL VEF ZWL`;

export const CURRENCY_CODES: ReadonlySet<string> = new Set(`${CURRENT} ${WITHDRAWN}`.split(/\s+/).filter(Boolean));

/** The reporting currency of an organisation that has not chosen one. */
export const DEFAULT_REPORTING_CURRENCY = 'USD';

/** A known ISO 4217 code, exactly (three upper-case letters: `usd` is not a code). */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && CURRENCY_CODES.has(value);
}
