// A value that follows another once it has stopped changing for `ms`
// (a slider dragged across many positions asks the API once, where it stops).
import { useEffect, useState } from 'preact/hooks';

export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
