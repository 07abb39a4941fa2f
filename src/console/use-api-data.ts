import { useCallback, useEffect, useState } from "react";
import { api, type CallOptions } from "./api";

/** GET `path` when the component mounts (and on reload); undefined until answered or when refused. */
export function useApiData<T>(path: string, options: CallOptions = {}) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [loaded, setLoaded] = useState(false);
  const quiet = options.quiet ?? false;
  const reload = useCallback(async () => {
    const reply = await api.get<T>(path, { quiet });
    setData(reply.ok ? reply.data : undefined);
    setLoaded(true);
  }, [path, quiet]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, loaded, reload, setData };
}
