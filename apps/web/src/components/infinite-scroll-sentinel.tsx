import { Loader, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

interface InfiniteScrollSentinelProps {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** Shown once the last page has been loaded (e.g. 'Все заявки загружены'). */
  endText?: string;
}

/**
 * Placed after the last item of an infinite list: when it comes near the viewport the next page loads
 * (spec.md section 4: "load the next page near the bottom and stop when a page has fewer than 10 items").
 */
export function InfiniteScrollSentinel({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  endText,
}: InfiniteScrollSentinelProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) fetchNextPage();
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div ref={ref} data-testid="infinite-scroll-sentinel">
      {isFetchingNextPage ? <Loader size="sm" aria-label="Загрузка" /> : null}
      {!hasNextPage && endText ? (
        <Text c="gray.7" size="sm" ta="center">
          {endText}
        </Text>
      ) : null}
    </div>
  );
}

/** For `useInfiniteQuery`: the next page number while the last page was full. */
export function nextPageWhileFull(pageSize: number) {
  return (lastPage: { items: readonly unknown[]; page: number }) =>
    lastPage.items.length < pageSize ? undefined : lastPage.page + 1;
}
