import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '../../shared/client.js';
import { App } from './App.js';
import { createAppStore } from './store/app-store.js';
import { StoreProvider } from './store/context.js';
import { selectTransport } from './transport/select.js';
import './styles.css';

const transport = selectTransport();
const store = createAppStore({
  client: createClient(transport),
  revealClient: createClient(transport, { reveal: true }),
  transport,
  clipboard: { writeText: (text) => navigator.clipboard.writeText(text) },
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
