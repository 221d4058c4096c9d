import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AppProvider } from './app-context';
import { takeTokensFromFragment } from './api/session';
import './styles.css';

// Single sign-on returns here with the tokens in the URL fragment: take them before anything renders.
takeTokensFromFragment();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <App />
    </AppProvider>
  </StrictMode>,
);
