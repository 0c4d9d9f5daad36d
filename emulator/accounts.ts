/**
 * Demo accounts. Each has a fixed API key, so examples and tests can hard-code them, and its own
 * billing methods; an account sees and touches only its own orders.
 */
import type { BillingMethodType } from "../contract/index.js";

export interface DemoAccount {
  /** Short account name used in logs and snapshots. */
  name: string;
  /** The API key (`Authorization: rimuhosting apikey=<apiKey>`). Digits only, like real keys. */
  apiKey: string;
  /** Account holder, as in "Selected user as the logged in user: <holder>". */
  holder: string;
  /** Further API keys of the same account (two users' keys, a key per team): each sees and changes the same orders. */
  otherApiKeys?: readonly string[];
}

/** The `demo` account's second API key: two providers with two keys on one account. */
export const DEMO_SECOND_API_KEY = "10000000000000000000000000000011";

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    name: "demo",
    apiKey: "10000000000000000000000000000001",
    holder: "Demo User",
    otherApiKeys: [DEMO_SECOND_API_KEY],
  },
  { name: "alice", apiKey: "20000000000000000000000000000002", holder: "Alice Example" },
  { name: "bob", apiKey: "30000000000000000000000000000003", holder: "Bob Example" },
];

export const DEMO_API_KEY: string = DEMO_ACCOUNTS[0]!.apiKey;

export function findAccountByKey(apiKey: string): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((a) => a.apiKey === apiKey || a.otherApiKeys?.includes(apiKey) === true);
}

/** Billing methods each account starts with, in listing order. */
export const DEMO_BILLING_METHODS: Readonly<
  Record<string, readonly { type: BillingMethodType; description: string }[]>
> = {
  demo: [
    { type: "TS_CC", description: "Visa: 4111 xxxx xxxx 1111 expiring 12/2030" },
    { type: "TS_WIRE", description: "Wire Transfer" },
    { type: "TS_PAYPAL", description: "PayPal: demo@example.com" },
  ],
  alice: [
    { type: "TS_CC", description: "Mastercard: 5555 xxxx xxxx 4444 expiring 06/2029" },
    { type: "TS_PAYPAL", description: "PayPal: alice@example.com" },
  ],
  bob: [
    { type: "TS_INVOICE", description: "Invoice: monthly, 30 days" },
    { type: "TS_OTHER", description: "Prepaid account credit" },
    { type: "TS_BANK", description: "Bank deposit" },
  ],
};
