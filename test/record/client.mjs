// A small wallet app, as a user would record it: it creates a token, lists it, sends SAL1 and the
// token to bob, and makes one call the wallet refuses. It knows only what `saltnet record` gives
// it in its environment, and mines through the daemon proxy to the miner's address.
const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set`);
  return v;
};
const wallet = env('SALTNET_WALLET_URL');
const bobWallet = env('SALTNET_WALLET_BOB_URL');
const daemon = env('SALTNET_DAEMON_URL');
const bob = env('SALTNET_WALLET_BOB_ADDRESS');
const miner = env('SALTNET_MINER_ADDRESS');
const ticker = process.env.TICKER ?? 'RCD1';

async function post(url, path, body) {
  const r = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return r.json();
}
async function rpc(url, method, params) {
  const a = await post(url, '/json_rpc', { jsonrpc: '2.0', id: '0', method, ...(params ? { params } : {}) });
  return a;
}
async function ok(url, method, params) {
  const a = await rpc(url, method, params);
  if (a.error) throw new Error(`${method}: ${a.error.message}`);
  return a.result;
}
async function mine(n) {
  const { height } = await post(daemon, '/get_height', {});
  const st = await post(daemon, '/start_mining', {
    miner_address: miner,
    threads_count: 1,
    do_background_mining: false,
    ignore_battery: true,
  });
  if (st.status !== 'OK') throw new Error(`start_mining: ${st.status}`);
  for (;;) {
    const h = (await post(daemon, '/get_height', {})).height;
    if (h >= height + n) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await post(daemon, '/stop_mining', {});
  for (const w of [wallet, bobWallet]) await ok(w, 'refresh');
}
const send = (to, amount, asset) => ({
  destinations: [{ address: to, amount, asset_type: asset }],
  source_asset: asset,
  dest_asset: asset,
  tx_type: 3,
});

await ok(wallet, 'get_balance', { asset_type: 'SAL1' });
await ok(wallet, 'create_token', { ticker, supply: 100, name: 'recorded token' });
await mine(1);
await ok(wallet, 'get_tokens', { regex: ticker });
await mine(10); // the creation's SAL1 change unlocks
const sent = await ok(wallet, 'transfer', send(bob, 1000000000, 'SAL1'));
await mine(61); // the token's supply unlocks 60 blocks after the block that minted it
await ok(wallet, 'get_balance', { asset_type: `sal${ticker}` });
await ok(wallet, 'transfer_split', send(bob, 1500000000, `sal${ticker}`));
const refused = await rpc(wallet, 'create_token', { ticker, supply: 100, name: 'again' });
if (!refused.error) throw new Error('a second token with the same ticker was accepted');
await mine(2);
await ok(wallet, 'get_transfers', { out: true });
await ok(bobWallet, 'get_balance', { all_assets: true });
await ok(bobWallet, 'get_transfers', { in: true });
const spent = await post(daemon, '/is_key_image_spent', { key_images: sent.spent_key_images.key_images });
if (spent.status !== 'OK') throw new Error(`is_key_image_spent: ${spent.status}`);
