export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
