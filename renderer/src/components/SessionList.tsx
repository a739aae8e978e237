/** The session list, virtualized: only the visible rows exist in the DOM, so 10,000 sessions scroll smoothly. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppStore } from '../store/context.js';
import { cssId } from '../views/ListView.js';
import { SessionRowView } from './SessionRow.js';

const ROW_HEIGHT = 54;
const ROW_HEIGHT_WITH_SNIPPET = 74;

export function SessionList() {
  const store = useAppStore();
  const { rows, cursor, searching, liveUsage, threshold } = useApp(
    useShallow((s) => ({ rows: s.rows, cursor: s.cursor, searching: s.hits !== null, liveUsage: s.liveUsage, threshold: s.settingsView?.settings.usageAlertContextPercent })),
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = searching ? ROW_HEIGHT_WITH_SNIPPET : ROW_HEIGHT;
  // TanStack Virtual returns a mutable instance the React Compiler cannot memoize; we do not use the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    getItemKey: (index) => rows[index]?.id ?? index,
  });

  useEffect(() => {
    virtualizer.measure();
  }, [rowHeight, virtualizer]);

  useEffect(() => {
    if (cursor >= 0) virtualizer.scrollToIndex(cursor, { align: 'auto' });
  }, [cursor, virtualizer]);

  return (
    <div className="session-scroll" ref={scrollRef} tabIndex={0} aria-label="Session list (scrollable)">
      <div id="session-list" role="listbox" aria-label="Sessions" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <SessionRowView
              key={item.key}
              id={`row-${cssId(row.id)}`}
              row={row}
              selected={item.index === cursor}
              usage={liveUsage.get(row.id)}
              threshold={threshold}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}
              onClick={() => {
                store.getState().setCursor(item.index);
                store.getState().openPreview(row.id);
              }}
            />
          );
        })}
      </div>
    </div>
  );
}
