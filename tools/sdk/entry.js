// The browser build of Discord's Embedded App SDK: `window.DiscordSDK`, the class an Activity
// page makes (`new DiscordSDK(clientId)`), unmodified; nothing else of the package is used.
import { DiscordSDK } from "@discord/embedded-app-sdk";

globalThis.DiscordSDK = DiscordSDK;
