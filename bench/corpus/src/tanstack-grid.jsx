// TanStack Table 8.21.3 + TanStack Virtual 3.14.26: a VIRTUALISED inventory data grid of
// 5,000 rows (only the visible rows are in the DOM): sortable header buttons, row checkboxes,
// editable quantity inputs, status selects, per-row icon buttons, a toolbar with a search box,
// column visibility checkboxes and a disabled bulk action.
import { useEffect, useMemo, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { useReactTable, getCoreRowModel, getSortedRowModel, flexRender } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ready } from "./lib/ready.js";

const cities = ["Berlin", "Lyon", "Porto", "Gdańsk", "Turin", "Ghent", "Malmö", "Brno"];
const items = ["Bolt M6", "Washer 8mm", "Hinge 90°", "Cable tie", "Bracket L", "Rivet 4mm", "Spring 12N", "Gasket R2"];
const data = Array.from({ length: 5000 }, (_, i) => ({
  sku: `SKU-${String(100000 + i * 7).slice(1)}`, item: items[i % 8], warehouse: cities[(i * 3) % 8],
  qty: (i * 37) % 500, price: ((i * 13) % 9000) / 100 + 0.5, status: ["in stock", "low", "backorder"][(i * 5) % 3],
}));

function App() {
  const [sorting, setSorting] = useState([{ id: "sku", desc: false }]);
  const [selection, setSelection] = useState({ 2: true, 5: true });
  const columns = useMemo(() => [
    { id: "select", header: ({ table }) => <input type="checkbox" aria-label="Select all rows" checked={table.getIsAllRowsSelected()} onChange={table.getToggleAllRowsSelectedHandler()} />,
      cell: ({ row }) => <input type="checkbox" aria-label={`Select ${row.original.sku}`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />, size: 40 },
    { accessorKey: "sku", header: "SKU", size: 110 },
    { accessorKey: "item", header: "Item", size: 150 },
    { accessorKey: "warehouse", header: "Warehouse", size: 130 },
    { accessorKey: "qty", header: "Quantity", size: 110, cell: ({ row }) => <input className="qty" type="number" defaultValue={row.original.qty} aria-label={`Quantity of ${row.original.sku}`} /> },
    { accessorKey: "price", header: "Unit price", size: 110, cell: ({ getValue }) => `€${getValue().toFixed(2)}` },
    { accessorKey: "status", header: "Status", size: 140, cell: ({ row }) => <select defaultValue={row.original.status} aria-label={`Status of ${row.original.sku}`}>
        <option>in stock</option><option>low</option><option>backorder</option></select> },
    { id: "actions", header: "", size: 90, cell: ({ row }) => <span className="acts">
        <button aria-label={`Edit ${row.original.sku}`}>✎</button><button aria-label={`Delete ${row.original.sku}`}>🗑</button></span> },
  ], []);
  const table = useReactTable({ data, columns, state: { sorting, rowSelection: selection }, onSortingChange: setSorting,
    onRowSelectionChange: setSelection, getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel(), enableRowSelection: true });
  const rows = table.getRowModel().rows;
  const scroller = useRef(null);
  const virt = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 36, overscan: 4,
    initialRect: { width: 1240, height: 560 } });
  useEffect(() => ready(300), []);
  return (
    <div className="wrap">
      <div className="bar">
        <strong>Inventory</strong>
        <input type="search" placeholder="Filter 5,000 items…" aria-label="Filter items" />
        {["Warehouse", "Unit price"].map(c => <label key={c}><input type="checkbox" defaultChecked /> {c}</label>)}
        <span className="spacer" />
        <span>{Object.keys(selection).length} selected</span>
        <button disabled>Move to warehouse…</button>
        <button className="primary">Add item</button>
      </div>
      <div className="grid" role="grid" aria-rowcount={rows.length + 1}>
        <div className="thead" role="row">
          {table.getHeaderGroups()[0].headers.map(h => (
            <div key={h.id} role="columnheader" className="th" style={{ width: h.getSize() }}
              aria-sort={h.column.getIsSorted() ? (h.column.getIsSorted() === "asc" ? "ascending" : "descending") : undefined}>
              {h.column.getCanSort() ? <button className="sort" onClick={h.column.getToggleSortingHandler()}>
                {flexRender(h.column.columnDef.header, h.getContext())} {{ asc: "▲", desc: "▼" }[h.column.getIsSorted()] ?? ""}</button>
                : flexRender(h.column.columnDef.header, h.getContext())}
            </div>))}
        </div>
        <div ref={scroller} className="scroller">
          <div style={{ height: virt.getTotalSize(), position: "relative" }}>
            {virt.getVirtualItems().map(v => {
              const row = rows[v.index];
              return (
                <div key={row.id} role="row" aria-rowindex={v.index + 2} className={"tr" + (row.getIsSelected() ? " sel" : "")}
                  style={{ position: "absolute", top: 0, transform: `translateY(${v.start}px)`, height: 36 }}>
                  {row.getVisibleCells().map(c => <div key={c.id} role="gridcell" className="td" style={{ width: c.column.getSize() }}>{flexRender(c.column.columnDef.cell, c.getContext())}</div>)}
                </div>);
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
createRoot(document.getElementById("root")).render(<App />);
